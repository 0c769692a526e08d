# Two commands matter: `make run` (everything, on a fresh machine) and `make test` (the whole suite).
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
API_PORT ?= 5000
WEB_PORT ?= 3000
# `make run`'s own settings; the tests choose theirs (tests/conftest.py, tests/e2e/run.mjs).
DATABASE_URL ?= sqlite:///$(CURDIR)/var/coldchain.db
REDIS_URL ?= redis://127.0.0.1:6379/0
# The web server proxies /api to the api and tells it the browser's host.
TRUSTED_PROXIES ?= 127.0.0.1,::1
MQTT_URL ?= mqtt://127.0.0.1:1883
export NEXT_TELEMETRY_DISABLED := 1
# Links in mail and SMS go to the web of make run (api/platform/links.py).
PUBLIC_BASE_URLS ?= default=http://localhost:$(WEB_PORT),junjia=http://junjia.localhost:$(WEB_PORT)
# The demo's social sign-in provider (tests/demo_oauth.py): the operator site's WeChat button uses it.
DEMO_OAUTH_PORT ?= 6100
# Outbound addresses must be public HTTPS (api/extensions/outbound.py); the demo's local provider is the
# listed exception.
OUTBOUND_ALLOWED_HOSTS ?= 127.0.0.1
# When this make began: `make run` prints how long it took to be ready, installs and build included.
MAKE_STARTED := $(shell date +%s)
RUN_ENV := DATABASE_URL=$(DATABASE_URL) REDIS_URL=$(REDIS_URL) MQTT_URL=$(MQTT_URL) TRUSTED_PROXIES=$(TRUSTED_PROXIES) \
           PUBLIC_BASE_URLS=$(PUBLIC_BASE_URLS) DEMO_OAUTH_URL=http://127.0.0.1:$(DEMO_OAUTH_PORT) FLASK_APP=api \
           OUTBOUND_ALLOWED_HOSTS=$(OUTBOUND_ALLOWED_HOSTS)

.PHONY: help install python-deps node-deps translations update-translations build migrate seed run test test-setup services \
        system-packages lint audit pytest web-test e2e test-steps bench bench-reliability reliability clean api-types

help:
	@echo "make run    install, build, migrate a SQLite database, seed the demo, start everything"
	@echo "make test   the whole suite (lint, api tests on PostgreSQL + Redis, web unit tests, browser tests)"
	@echo "make bench  benchmarks, one 'BENCH <name> <value> <unit>' line each"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Re-install only when the lock file changes.
$(VENV)/.installed: requirements.lock pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.lock
	$(BIN)/pip install --quiet --no-deps -e .
	$(BIN)/pip install --quiet -e '.[fast]' 2>/dev/null \
		|| echo "gunicorn_h1c not built (no C compiler?): gunicorn parses HTTP in Python (pyproject.toml, fast)"
	touch $@

python-deps: $(VENV)/.installed

node_modules/.package-lock.json: package-lock.json package.json web/package.json
	npm ci --no-audit --no-fund
	touch $@

node-deps: node_modules/.package-lock.json

translations: python-deps
	$(BIN)/pybabel compile -d api/translations >/dev/null

# After adding messages: extract, merge into both catalogues, then translate zh_Hans_CN.
update-translations: python-deps
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k lazy_gettext -o api/translations/messages.pot --no-location --sort-output --project coldchain .
	$(BIN)/pybabel update -i api/translations/messages.pot -d api/translations --omit-header --ignore-obsolete --no-fuzzy-matching
	@# pybabel marks the merged header fuzzy (compile would then skip the whole catalogue) and writes
	@# the template's header: keep each catalogue's language and plural forms from its directory.
	$(BIN)/python -c "import glob; from babel.messages.pofile import read_po, write_po; \
	  [write_po(open(p, 'wb'), setattr(c, 'fuzzy', False) or c, sort_output=True, no_location=True, ignore_obsolete=True) \
	   for p in glob.glob('api/translations/*/LC_MESSAGES/messages.po') for c in [read_po(open(p, 'rb'), locale=p.split('/')[2])]]"

install: python-deps node-deps translations

build: install
	API_URL=http://127.0.0.1:$(API_PORT) npm run build -w web

migrate: install
	@mkdir -p var
	$(RUN_ENV) $(BIN)/flask db upgrade

seed: migrate
	$(RUN_ENV) $(BIN)/flask seed-demo

# The production server, not Flask's: threads rather than gevent here, because SQLite's lock waits and
# the demo's CPU-bound work (sign-in hashing, PDFs) would stall a gevent worker's every other request.
run: build seed
	@export $(RUN_ENV); \
	trap 'trap - INT TERM EXIT; kill 0 2>/dev/null; wait 2>/dev/null' INT TERM EXIT; \
	$(BIN)/gunicorn -c gunicorn.conf.py --bind 127.0.0.1:$(API_PORT) --workers 2 --worker-class gthread --threads 8 \
	  'api:create_app()' & \
	$(BIN)/python -m tests.demo_oauth $(DEMO_OAUTH_PORT) & \
	if $(BIN)/python -c "import redis,os,sys; redis.Redis.from_url(os.environ['REDIS_URL'], socket_connect_timeout=1).ping()" 2>/dev/null; then \
	  $(BIN)/rq worker --worker-class api.jobs.worker.AppWorker --url $$REDIS_URL --with-scheduler notifications exports reports default & \
	  $(BIN)/rq cron --url $$REDIS_URL api/jobs/schedule.py & \
	else echo "No Redis at $$REDIS_URL: jobs run inside the api process (embedded default)"; fi; \
	if (exec 3<>/dev/tcp/127.0.0.1/1883) 2>/dev/null; then $(BIN)/flask ingest mqtt & \
	else echo "No MQTT broker: the simulator uploads over HTTP"; fi; \
	(for i in $$(seq 1 30); do curl -fs -o /dev/null http://127.0.0.1:$(API_PORT)/api/health && break; sleep 1; done; \
	 exec $(BIN)/flask simulate --api-url http://127.0.0.1:$(API_PORT)) & \
	API_URL=http://127.0.0.1:$(API_PORT) WEB_PORT=$(WEB_PORT) npm run start -w web & \
	for i in $$(seq 1 120); do curl -fs -o /dev/null http://localhost:$(WEB_PORT)/user/login && break; sleep 1; done; \
	echo; \
	echo "  Cold-chain platform is running (Ctrl-C stops everything), ready $$(( $$(date +%s) - $(MAKE_STARTED) )) s after make run began"; \
	echo "  operator site : http://localhost:$(WEB_PORT)/user/login"; \
	echo "  reseller site : http://junjia.localhost:$(WEB_PORT)/user/login"; \
	echo "  api docs      : http://localhost:$(API_PORT)/api/docs"; \
	echo "  demo logins   : demouser / Cold#2026 (enterprise, operator site)"; \
	echo "                  operator / Cold#2026 (platform operator)"; \
	echo "                  reseller / Cold#2026 (admin of the junjia site)"; \
	echo "                  demomember / Cold#2026 (observer in demouser's organization)"; \
	echo "                  demoviewer / Cold#2026 (a fridge shared with it, humidity hidden)"; \
	echo "                  demoqa / Cold#2026 (demouser's quality assurance: the second person of FDA mode)"; \
	echo "                  labadmin / Cold#2026 (calibration lab admin: /calibration/admin/login;"; \
	echo "                             demouser orders calibrations at /calibration/login)"; \
	echo "  social sign-in: the WeChat button of the operator site goes to a local demo provider"; \
	echo "                  (port $(DEMO_OAUTH_PORT)): Allow, then bind it once to a demo login"; \
	echo; \
	wait

# ---- tests -------------------------------------------------------------------------------------

# Browser tests need chromium and a CJK font.
APT_PACKAGES := chromium fonts-wqy-microhei

system-packages:
	@if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi "wenquanyi micro hei"; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get install -y --no-install-recommends $(APT_PACKAGES) >/dev/null 2>&1 || \
	    (apt-get update >/dev/null && apt-get install -y --no-install-recommends $(APT_PACKAGES) >/dev/null); \
	  else echo "these Debian packages are needed: apt-get install $(APT_PACKAGES)"; exit 1; fi; \
	fi

# Start the engines the tests use when they are down (commands of this machine's env page).
services:
	@pg_isready -q -h 127.0.0.1 -p 5432 || { pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start; \
	  for i in $$(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done; }
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 \
	  --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
	@(exec 3<>/dev/tcp/127.0.0.1/1883) 2>/dev/null || mosquitto -d -c /etc/mosquitto/mosquitto.conf
	@psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='test'" | grep -q 1 || \
	  createdb -h 127.0.0.1 -U postgres test

test-setup: system-packages services install

lint: install
	$(BIN)/ruff check api tests bench gunicorn.conf.py
	$(BIN)/ruff format --check api tests bench gunicorn.conf.py
	$(BIN)/lint-imports
	npm run lint -w web
	npm run typecheck -w web
	npm run format:check -w web
	npm run api-types:check -w web

# The web's api types: the document the api serves (web/openapi.json, sorted keys; no database needed),
# then the TypeScript openapi-typescript generates from it (web/src/api/schema.d.ts). Run after changing
# an api schema or route; tests/api/test_web_types.py and `make lint` fail while either is stale.
api-types: install
	$(BIN)/python -c "import json; from api import create_app; from api.settings import TestConfig; \
	  from api.extensions.smorest import api; app = create_app(TestConfig); app.app_context().push(); \
	  print(json.dumps(api.spec.to_dict(), indent=2, sort_keys=True, ensure_ascii=False))" > web/openapi.json
	npm run api-types -w web

# bandit, pip-audit and npm audit (high); accepted findings live in tests/security/allowlist.json.
audit: install
	$(BIN)/python tests/security/audit.py

# Two workers, one per core of the CI machine; each has its own database (tests/conftest.py).
# The run's JUnit XML feeds the validation report (IQ/OQ, docs/validation/part11.yaml): written even
# when tests fail, and the build fails when a Part 11 / Annex 11 clause has no passing test.
PYTEST_WORKERS ?= 2
TEST_ARTIFACTS ?= var/test-artifacts
pytest: test-setup
	@mkdir -p $(TEST_ARTIFACTS)
	@rm -f $(TEST_ARTIFACTS)/junit.xml
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) --dist loadgroup --durations=15 --junitxml=$(TEST_ARTIFACTS)/junit.xml tests/api; \
	status=$$?; \
	APP_ENV=test FLASK_APP=api $(BIN)/flask validation report --results $(TEST_ARTIFACTS)/junit.xml \
	  --out $(TEST_ARTIFACTS)/validation-report.pdf || status=1; \
	exit $$status

web-test: install
	npm run test -w web

e2e: test-setup
	npm run e2e

# The whole suite, in the order CI runs it; its time is printed at the end, passed or failed.
test:
	@started=$$(date +%s); status=0; \
	$(MAKE) --no-print-directory test-steps || status=$$?; \
	elapsed=$$(( $$(date +%s) - started )); \
	if [ $$status = 0 ]; then verdict=passed; else verdict=FAILED; fi; \
	echo "make test $$verdict in $$((elapsed / 60)) min $$((elapsed % 60)) s"; \
	exit $$status

test-steps: test-setup lint audit pytest web-test e2e

# Includes the fleet (bench/fleet.py, docs/scaling.md): BENCH_SOAK_S=600 for the full 10-minute soak;
# BENCH_FLEET_DEVICES / _RATE / _S, BENCH_HTTP_S for smaller runs while developing.
bench: test-setup
	$(BIN)/python -m bench

# Fuzzing, the BOLA probe, fault tests on private PostgreSQL / Redis / Mosquitto instances, and load
# (locust against gunicorn): BENCH lines. `make reliability` runs only the fault tests, as pytest.
bench-reliability: test-setup
	$(BIN)/python -m bench reliability

reliability: test-setup
	$(BIN)/pytest -q -s tests/reliability

clean:
	rm -rf var web/.next web/.next-e2e tests/e2e/artifacts
