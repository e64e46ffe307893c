# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: run test install install-test translations messages icons browser postgres node bench

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed requirements-test.txt
	$(PY) -m pip install -q -r requirements-test.txt
	touch $@

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test

translations: install
	@if ls translations/*/LC_MESSAGES/messages.po >/dev/null 2>&1; then \
		$(VENV)/bin/pybabel compile -d translations >/dev/null; fi

# Re-extract every translatable string and merge it into each language's catalog.
messages: install
	$(VENV)/bin/flask --app app translate update

# Redraw the app icons (pure Python; the PNGs are committed).
icons:
	$(PYTHON) scripts/make_icons.py

# Debian's chromium drives the browser tests; install it when it is missing (CI runs as root).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core; }

# The sheet's tests also run against a real PostgreSQL, which the tests start themselves
# (tests/postgres.py); install Debian's package when it is missing (CI runs as root).
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; }

# The offline calculator's and sheet's scripts are checked against the engine under node;
# install Debian's package when it is missing (CI runs as root).
node:
	@command -v node >/dev/null 2>&1 || command -v nodejs >/dev/null 2>&1 || { \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs; }

# gunicorn.conf.py: 127.0.0.1:$PORT unless HOST is set, WEB_CONCURRENCY workers (see the README).
run: translations
	PORT=$(PORT) $(VENV)/bin/gunicorn -c gunicorn.conf.py 'app:create_app()'

test: install-test translations browser postgres node
	$(PY) -m pytest -q

bench: install
	$(PY) bench/engine.py
	$(PY) bench/quiz.py

# Figures of the whole app (docs/performance.md): load on 127.0.0.1 with wrk, bytes of a visit
# in Chromium, Lighthouse scores. Each starts and stops its own gunicorn.
.PHONY: bench-http bench-weight bench-lighthouse
bench-http: translations
	$(PY) bench/http.py

bench-weight: install-test translations browser
	$(PY) bench/weight.py

bench-lighthouse: translations browser
	bench/lighthouse.sh
