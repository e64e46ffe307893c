"""How the app is served and kept: the secret key (secret_key.py), the gunicorn worker that
reads each request whole before a thread answers it (worker.py; gunicorn.conf.py names it),
and the `flask translate` commands (cli.py). None of it is the web layer's features."""
