"""The blog's own pages: the front page, posts, categories, archives and players, their feeds, and the
sidebar every page shows."""
