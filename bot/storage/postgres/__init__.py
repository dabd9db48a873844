"""PostgreSQL storage (``DATABASE_URL``): an `Engine` over psycopg 3 and its pool
(`database`), the query modules' connection adapter (`connection`), migrations
(`migrate`, ``migrations/``) and the copy from SQLite (`copy`). Needs the ``postgres``
extra (``pip install -e '.[postgres]'``)."""
