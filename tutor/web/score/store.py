"""Where score sheets live: SQLite by default, PostgreSQL when ``DATABASE_URL`` names one.

One small module, one code path: the same SQL runs on both (``?`` placeholders, turned into
``%s`` for psycopg). Every write is one transaction that first bumps the sheet's version
where it still has the version the writer saw, so two phones editing one sheet never
overwrite each other: the later one gets a Conflict and sees the sheet as it now is.

Reads take no lock: SQLite in WAL mode lets them run beside a writer (a read is a deferred
transaction, one consistent snapshot; only a write begins IMMEDIATE, so writers queue).
PostgreSQL connections come from a pool per process (psycopg_pool), at most
``DATABASE_POOL_SIZE`` of them (default POOL_SIZE).
"""
from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Protocol

from tutor.web.score.store_format import Listed, Sheet, StoredDeal, new_deal_id, new_key

SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS sheets (
        id TEXT PRIMARY KEY,
        edit_key TEXT NOT NULL UNIQUE,
        view_key TEXT NOT NULL UNIQUE,
        players TEXT NOT NULL,
        rules TEXT NOT NULL,
        bock INTEGER NOT NULL,
        first_dealer INTEGER NOT NULL,
        version INTEGER NOT NULL,
        created TEXT NOT NULL,
        imported INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE IF NOT EXISTS deals (
        sheet_id TEXT NOT NULL REFERENCES sheets (id),
        id TEXT NOT NULL,
        position INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (sheet_id, id),
        UNIQUE (sheet_id, position)
    )""",
)
SHEET_COLUMNS: Final = "id, edit_key, view_key, players, rules, bock, first_dealer, version"
POOL_SIZE: Final = 8  # PostgreSQL connections a worker process keeps at most (DATABASE_POOL_SIZE)
POOL_WAIT: Final = 10  # seconds a request waits for a free connection before it fails
SQLITE_KEPT: Final = 8  # SQLite connections a process keeps open between calls (more are opened when busy)
# Columns added after the first release, made where an older database lacks them.
ADDED_COLUMNS: Final = (("sheets", "imported", "INTEGER NOT NULL DEFAULT 0"),)


class Conflict(Exception):
    """The sheet changed since the writer read it (another phone wrote first)."""


class NotFound(Exception):
    """No such sheet or deal."""


class AlreadySaved(Exception):
    """A deal with this one-time id is on the sheet already: the same form was sent twice
    (its answer was lost), and the first one was saved."""


class _Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def execute(self, sql: str, params: Any = ...) -> Any: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


def _sheet(row: Any) -> Sheet:
    return Sheet(row[0], row[1], row[2], tuple(json.loads(row[3])), row[4], bool(row[5]), int(row[6]), int(row[7]))


class Store:
    """Sheets and their deals in one database named by a URL: ``sqlite:///path`` or
    ``postgresql://…``. Each call runs in one transaction on a connection of this process's
    pool (psycopg_pool for PostgreSQL; for SQLite a few kept connections, each used by one
    thread at a time): a request opens no connection of its own."""

    def __init__(self, url: str, pool_size: int | None = None) -> None:
        self.url = url
        self.postgres = url.startswith(("postgres://", "postgresql://"))
        if not self.postgres and not url.startswith("sqlite:///"):
            raise ValueError("DATABASE_URL must start with sqlite:/// or postgresql://")
        self.pool_size = pool_size or pool_size_from(os.environ)
        self._ready = False
        self._pool: Any = None
        self._pool_pid = 0
        self._pool_lock = threading.Lock()
        self._idle: list[sqlite3.Connection] = []  # SQLite connections not in use, this process's
        self._idle_pid = os.getpid()

    def _sqlite(self) -> sqlite3.Connection:
        """A SQLite connection nobody else is using: a kept one, or a new one, set up once
        (durable on commit, foreign keys checked; WAL is the file's own mode, see setup)."""
        with self._pool_lock:
            if self._idle_pid != os.getpid():  # a forked worker: its parent's connections are not its own
                self._idle, self._idle_pid = [], os.getpid()
            if self._idle:
                return self._idle.pop()
        conn = sqlite3.connect(self.url.removeprefix("sqlite:///"), timeout=15, isolation_level=None,
                               check_same_thread=False)  # one thread at a time, handed on through the pool
        # Durable on commit: a crash right after a confirmed write loses nothing.
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    def _done_with(self, conn: sqlite3.Connection) -> None:
        with self._pool_lock:
            if self._idle_pid == os.getpid() and len(self._idle) < SQLITE_KEPT:
                self._idle.append(conn)
                return
        conn.close()

    def _connections(self) -> Any:
        """This process's pool of PostgreSQL connections, opened on first use (a pool does not
        survive a fork: gunicorn's workers each open their own)."""
        with self._pool_lock:
            if self._pool is None or self._pool_pid != os.getpid():
                from psycopg_pool import ConnectionPool  # only needed when a PostgreSQL server is configured

                self._pool = ConnectionPool(self.url, min_size=1, max_size=self.pool_size, timeout=POOL_WAIT,
                                            kwargs={"connect_timeout": 10}, open=True)
                self._pool_pid = os.getpid()
                weakref.finalize(self, self._pool.close)  # a store no longer used gives its connections back
            return self._pool

    def close(self) -> None:
        """Close this process's connections."""
        with self._pool_lock:
            if self._pool is not None and self._pool_pid == os.getpid():
                self._pool.close()
            self._pool = None
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    @contextmanager
    def _transaction(self, write: bool = True) -> Iterator[_Cursor]:
        """One transaction: committed when the block ends, rolled back on any error. A read
        (`write=False`) sees one consistent state and takes no write lock."""
        if self.postgres:
            with self._connections().connection() as pg:  # commits or rolls back, then back to the pool
                with pg.cursor() as cursor:
                    yield _Postgres(cursor)
            return
        conn = self._sqlite()
        try:
            # Writers queue at BEGIN IMMEDIATE instead of failing later; readers never wait (WAL).
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN DEFERRED")
        except BaseException:
            conn.close()  # a connection in an unknown state is never kept
            raise
        try:
            yield conn.cursor()
        except BaseException:
            self._end(conn, "ROLLBACK")
            raise
        self._end(conn, "COMMIT")

    def _end(self, conn: sqlite3.Connection, how: str) -> None:
        """Commit or roll back, and give the connection back (closed if that failed)."""
        try:
            conn.execute(how)
        except BaseException:
            conn.close()
            raise
        self._done_with(conn)

    def setup(self) -> None:
        """Create the tables (and the SQLite file's folder) if they are not there yet."""
        if self._ready:
            return
        if not self.postgres:
            path = Path(self.url.removeprefix("sqlite:///"))
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(path, timeout=15)
            try:
                conn.execute("PRAGMA journal_mode = WAL")
            finally:
                conn.close()
        with self._transaction() as cur:
            if self.postgres:
                # Several workers may start at once: one creates the tables, the others wait.
                cur.execute("SELECT pg_advisory_xact_lock(4711)")
            for statement in SCHEMA:
                cur.execute(statement)
            for table, column, kind in ADDED_COLUMNS:
                if self.postgres:
                    cur.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")
                    continue
                cur.execute(f"PRAGMA table_info({table})")
                if column not in {row[1] for row in cur.fetchall()}:
                    cur.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        self._ready = True

    @contextmanager
    def _write(self, sheet_id: str, version: int) -> Iterator[_Cursor]:
        """A transaction that first claims the next version of the sheet; Conflict when
        another write got there first."""
        self.setup()
        with self._transaction() as cur:
            cur.execute("UPDATE sheets SET version = version + 1 WHERE id = ? AND version = ?", (sheet_id, version))
            if cur.rowcount != 1:
                raise Conflict(sheet_id)
            yield cur

    def create_sheet(self, players: list[str], rules: str, bock: bool, first_dealer: int,
                     deals: Sequence[dict[str, Any]] = (), imported: bool = False) -> Sheet:
        """A new sheet with new keys, and its deals when it is imported: the sheet and all its
        deals in one transaction, so a failure on the way leaves no sheet at all."""
        self.setup()
        sheet = Sheet(new_key(), new_key(), new_key(), tuple(players), rules, bock, first_dealer, 1)
        with self._transaction() as cur:
            cur.execute(
                f"INSERT INTO sheets ({SHEET_COLUMNS}, created, imported) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (sheet.id, sheet.edit_key, sheet.view_key, json.dumps(players), rules, int(bock), first_dealer,
                 sheet.version, datetime.now(UTC).isoformat(), int(imported)),
            )
            for position, data in enumerate(deals, start=1):
                cur.execute("INSERT INTO deals (sheet_id, id, position, data) VALUES (?, ?, ?, ?)",
                            (sheet.id, new_deal_id(), position, json.dumps(data, sort_keys=True)))
        return sheet

    @staticmethod
    def _by_key(cur: _Cursor, key: str) -> tuple[Sheet, bool]:
        cur.execute(f"SELECT {SHEET_COLUMNS} FROM sheets WHERE edit_key = ? OR view_key = ?", (key, key))
        row = cur.fetchone()
        if row is None:
            raise NotFound(key)
        sheet = _sheet(row)
        return sheet, secrets.compare_digest(sheet.edit_key, key)

    def find(self, key: str) -> tuple[Sheet, bool]:
        """The sheet a link's key opens, and whether the key is the editor's."""
        self.setup()
        with self._transaction(write=False) as cur:
            return self._by_key(cur, key)

    def load(self, key: str) -> tuple[Sheet, bool, list[StoredDeal]]:
        """The sheet and its deals in order, read in one transaction (one consistent state)."""
        self.setup()
        with self._transaction(write=False) as cur:
            sheet, editor = self._by_key(cur, key)
            cur.execute("SELECT id, position, data FROM deals WHERE sheet_id = ? ORDER BY position", (sheet.id,))
            deals = [StoredDeal(r[0], int(r[1]), json.loads(r[2])) for r in cur.fetchall()]
        return sheet, editor, deals

    def listed(self, keys: Sequence[str]) -> list[Listed]:
        """The sheets these keys open, in the keys' order, each with its number of deals, in
        one query; a key that opens no sheet (any more) is left out."""
        keys = list(dict.fromkeys(keys))
        if not keys:
            return []
        self.setup()
        marks = ", ".join("?" * len(keys))
        with self._transaction(write=False) as cur:
            cur.execute(f"SELECT {SHEET_COLUMNS}, created, imported, "
                        "(SELECT COUNT(*) FROM deals WHERE deals.sheet_id = sheets.id) FROM sheets "
                        f"WHERE edit_key IN ({marks}) OR view_key IN ({marks})", (*keys, *keys))
            rows = cur.fetchall()
        found: dict[str, Listed] = {}
        for row in rows:
            sheet = _sheet(row)
            created = datetime.fromisoformat(row[8])
            for key, editor in ((sheet.edit_key, True), (sheet.view_key, False)):
                found[key] = Listed(key, sheet, editor, created, int(row[10]), bool(row[9]))
        return [found[key] for key in keys if key in found]

    @staticmethod
    def _has_deal(cur: _Cursor, sheet_id: str, deal_id: str) -> bool:
        cur.execute("SELECT 1 FROM deals WHERE sheet_id = ? AND id = ?", (sheet_id, deal_id))
        return cur.fetchone() is not None

    def add_deal(self, sheet: Sheet, version: int, data: dict[str, Any], deal_id: str | None = None) -> str:
        """Add a deal under `deal_id`, the one-time id its form carried (a new one without).
        AlreadySaved when a deal with that id is on the sheet: checked before the version, so
        a form sent again gets that answer, not a Conflict, even after other writes."""
        deal_id = deal_id or new_deal_id()
        self.setup()
        try:
            with self._transaction() as cur:
                if self._has_deal(cur, sheet.id, deal_id):
                    raise AlreadySaved(deal_id)
                cur.execute("UPDATE sheets SET version = version + 1 WHERE id = ? AND version = ?",
                            (sheet.id, version))
                if cur.rowcount != 1:
                    raise Conflict(sheet.id)
                cur.execute("SELECT COALESCE(MAX(position), 0) FROM deals WHERE sheet_id = ?", (sheet.id,))
                position = int(cur.fetchone()[0]) + 1
                cur.execute("INSERT INTO deals (sheet_id, id, position, data) VALUES (?, ?, ?, ?)",
                            (sheet.id, deal_id, position, json.dumps(data, sort_keys=True)))
        except Exception as error:
            # Two copies of one form at once: the one that waited for the other's version
            # sees it committed only now (a Conflict), or, sent with the version the first
            # one made, finds the id taken when it inserts (the primary key keeps the deal
            # once); either way the first one was saved.
            if not isinstance(error, Conflict) and not self._is_duplicate(error):
                raise
            with self._transaction(write=False) as cur:
                if self._has_deal(cur, sheet.id, deal_id):
                    raise AlreadySaved(deal_id) from None
            raise
        return deal_id

    def _is_duplicate(self, error: Exception) -> bool:
        """Whether a write failed on a key already taken."""
        if self.postgres:
            import psycopg

            return isinstance(error, psycopg.IntegrityError)
        return isinstance(error, sqlite3.IntegrityError)

    def update_deal(self, sheet: Sheet, version: int, deal_id: str, data: dict[str, Any]) -> None:
        with self._write(sheet.id, version) as cur:
            cur.execute("UPDATE deals SET data = ? WHERE sheet_id = ? AND id = ?",
                        (json.dumps(data, sort_keys=True), sheet.id, deal_id))
            if cur.rowcount != 1:
                raise NotFound(deal_id)

    def delete_deal(self, sheet: Sheet, version: int, deal_id: str) -> None:
        with self._write(sheet.id, version) as cur:
            cur.execute("DELETE FROM deals WHERE sheet_id = ? AND id = ?", (sheet.id, deal_id))
            if cur.rowcount != 1:
                raise NotFound(deal_id)


def pool_size_from(environ: Any) -> int:
    """DATABASE_POOL_SIZE from the environment (1 to 100), POOL_SIZE when it is not set."""
    text = str(environ.get("DATABASE_POOL_SIZE", "")).strip()
    if not text:
        return POOL_SIZE
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 100:
        raise ValueError(f"DATABASE_POOL_SIZE={text!r}: expected a whole number from 1 to 100")
    return int(text)


class _Postgres:
    """A psycopg cursor that takes the ``?`` placeholders the SQL above is written with."""

    def __init__(self, cursor: Any) -> None:
        self._cursor = cursor

    @property
    def rowcount(self) -> int:
        return int(self._cursor.rowcount)

    def execute(self, sql: str, params: Any = ()) -> Any:
        return self._cursor.execute(sql.replace("?", "%s"), params)

    def fetchone(self) -> Any:
        return self._cursor.fetchone()

    def fetchall(self) -> list[Any]:
        return list(self._cursor.fetchall())
