"""Statistics of the whole game at ``/stats/``: ``selectors`` count with aggregate queries and cache the
result, ``plots`` draws the figures, ``views`` serves the page and the images."""
