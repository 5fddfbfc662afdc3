"""Request plumbing: what every request passes through before and after a page is made (the page cache and its
freshness, the site's own middleware, logging in, safe addresses), and the answers every site gives whatever
its content (error pages, the favicon)."""
