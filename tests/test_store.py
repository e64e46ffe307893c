"""The sheet store, on SQLite and on a real PostgreSQL: one transaction per write, versions
that keep two phones from overwriting each other, nothing half-written."""
from __future__ import annotations

import threading

import pytest

from tests.postgres import postgres_url
from tutor.web.score.store import AlreadySaved, Conflict, NotFound, Store


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path) -> Store:
    url = f"sqlite:///{tmp_path}/sheets.sqlite3" if request.param == "sqlite" else postgres_url()
    return Store(url)


def test_sqlite_file_and_folder_are_made_on_first_use(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/instance/doko.sqlite3")
    sheet = store.create_sheet(["A", "B", "C", "D"], "ddv", False, 0)
    assert (tmp_path / "instance" / "doko.sqlite3").exists()
    assert Store(store.url).find(sheet.view_key)[0] == sheet


def test_only_sqlite_and_postgres_urls():
    with pytest.raises(ValueError):
        Store("mysql://somewhere/db")


def test_a_sheet_opens_with_either_key_and_only_one_edits(store):
    sheet = store.create_sheet(["Anna", "Bert", "Carl", "Dora", "Emil"], "pagat|deck=40", True, 2)
    assert store.find(sheet.edit_key) == (sheet, True)
    assert store.find(sheet.view_key) == (sheet, False)
    assert sheet.players == ("Anna", "Bert", "Carl", "Dora", "Emil") and sheet.rules == "pagat|deck=40"
    assert len({sheet.id, sheet.edit_key, sheet.view_key}) == 3 and len(sheet.edit_key) == 22
    with pytest.raises(NotFound):
        store.find("x" * 22)


def test_every_write_bumps_the_version_and_keeps_the_order(store):
    sheet = store.create_sheet(["A", "B", "C", "D"], "ddv", False, 0)
    first = store.add_deal(sheet, 1, {"n": 1})
    second = store.add_deal(sheet, 2, {"n": 2})
    store.update_deal(sheet, 3, first, {"n": 10})
    store.delete_deal(sheet, 4, second)
    store.add_deal(sheet, 5, {"n": 3})
    loaded, _, deals = store.load(sheet.edit_key)
    assert loaded.version == 6
    assert [d.data for d in deals] == [{"n": 10}, {"n": 3}]


def test_a_stale_version_is_a_conflict_and_changes_nothing(store):
    sheet = store.create_sheet(["A", "B", "C", "D"], "ddv", False, 0)
    deal = store.add_deal(sheet, 1, {"n": 1})
    for write in (lambda: store.add_deal(sheet, 1, {"n": 2}),
                  lambda: store.update_deal(sheet, 1, deal, {"n": 3}),
                  lambda: store.delete_deal(sheet, 1, deal)):
        with pytest.raises(Conflict):
            write()
    loaded, _, deals = store.load(sheet.edit_key)
    assert loaded.version == 2 and [d.data for d in deals] == [{"n": 1}]


def test_a_missing_deal_rolls_the_version_back(store):
    sheet = store.create_sheet(["A", "B", "C", "D"], "ddv", False, 0)
    with pytest.raises(NotFound):
        store.update_deal(sheet, 1, "000000000000", {"n": 1})
    with pytest.raises(NotFound):
        store.delete_deal(sheet, 1, "000000000000")
    assert store.load(sheet.edit_key)[0].version == 1


def test_two_phones_writing_at_once_never_both_win(store):
    sheet = store.create_sheet(["A", "B", "C", "D"], "ddv", False, 0)
    outcomes: list[str] = []
    barrier = threading.Barrier(6)

    def phone(n: int) -> None:
        barrier.wait()
        try:
            store.add_deal(sheet, 1, {"phone": n})
            outcomes.append("saved")
        except Conflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["conflict"] * 5 + ["saved"]
    loaded, _, deals = store.load(sheet.edit_key)
    assert loaded.version == 2 and len(deals) == 1


def test_a_sheet_is_created_with_its_deals_in_one_transaction(store):
    """An imported sheet: the sheet and every deal at once, in order, with ids of their own."""
    sheet = store.create_sheet(["A", "B", "C", "D"], "ddv", True, 2, [{"n": 1}, {"n": 2}, {"n": 3}])
    loaded, editor, deals = store.load(sheet.edit_key)
    assert loaded == sheet and editor and loaded.version == 1
    assert [d.data for d in deals] == [{"n": 1}, {"n": 2}, {"n": 3}] and [d.position for d in deals] == [1, 2, 3]
    assert len({d.id for d in deals}) == 3
    store.add_deal(sheet, 1, {"n": 4})  # the sheet goes on like any other
    assert [d.data["n"] for d in store.load(sheet.view_key)[2]] == [1, 2, 3, 4]


def test_a_failure_while_writing_the_deals_leaves_no_sheet(store):
    def sheets() -> int:
        store.setup()
        with store._transaction() as cur:
            cur.execute("SELECT COUNT(*) FROM sheets")
            return int(cur.fetchone()[0])

    before = sheets()
    with pytest.raises(TypeError):  # the third deal cannot be written: the first two roll back with the sheet
        store.create_sheet(["A", "B", "C", "D"], "ddv", False, 0, [{"n": 1}, {"n": 2}, {"n": {3}}])
    assert sheets() == before


def test_a_read_does_not_wait_for_a_writer(tmp_path):
    """SQLite in WAL mode: a sheet can be read while another request holds the write lock
    (only writes begin IMMEDIATE)."""
    import sqlite3
    import time

    store = Store(f"sqlite:///{tmp_path}/sheets.sqlite3")
    sheet = store.create_sheet(["A", "B", "C", "D"], "ddv", False, 0)
    writer = sqlite3.connect(f"{tmp_path}/sheets.sqlite3", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE sheets SET version = version + 1 WHERE id = ?", (sheet.id,))
    try:
        start = time.monotonic()
        assert store.load(sheet.view_key)[0].version == 1  # the state before the writer's commit
        assert store.find(sheet.edit_key) == (sheet, True)
        assert [listed.key for listed in store.listed([sheet.view_key])] == [sheet.view_key]
        assert time.monotonic() - start < 2  # a write lock would hold them for the 15 s timeout
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_postgres_connections_come_from_one_pool_per_process(monkeypatch):
    monkeypatch.setenv("DATABASE_POOL_SIZE", "3")
    store = Store(postgres_url())
    sheet = store.create_sheet(["A", "B", "C", "D"], "ddv", False, 0)
    for _ in range(5):
        store.load(sheet.edit_key)
    pool = store._connections()
    assert pool.max_size == 3 and pool.get_stats()["connections_num"] <= 3
    assert store._connections() is pool
    store.close()


@pytest.mark.parametrize("text", ["0", "101", "many", "²"])
def test_a_bad_pool_size_is_refused_with_its_name(text):
    from tutor.web.score.store import pool_size_from

    with pytest.raises(ValueError, match="DATABASE_POOL_SIZE"):
        pool_size_from({"DATABASE_POOL_SIZE": text})
    assert pool_size_from({}) == 8 and pool_size_from({"DATABASE_POOL_SIZE": " 20 "}) == 20


def test_a_deal_sent_twice_is_stored_once_however_the_copies_meet(store):
    """The one-time id keeps a deal once: the same copy again after other writes, two copies
    at once with the same version, and a copy that reaches the insert after the first one
    committed (it read the sheet before, and carries the version the first one made)."""
    sheet = store.create_sheet(["A", "B", "C", "D"], "ddv", False, 0)
    once = "0123456789ab"
    assert store.add_deal(sheet, 1, {"n": 1}, once) == once
    store.add_deal(sheet, 2, {"n": 2})
    with pytest.raises(AlreadySaved):
        store.add_deal(sheet, 1, {"n": 1}, once)  # the old version: still "saved", not a conflict
    with pytest.raises(AlreadySaved):
        store.add_deal(sheet, 3, {"n": 1}, once)  # the current version: still only once

    outcomes: list[str] = []
    barrier = threading.Barrier(4)

    def copy() -> None:
        barrier.wait()
        try:
            store.add_deal(sheet, 3, {"n": 3}, "ba9876543210")
            outcomes.append("saved")
        except AlreadySaved:
            outcomes.append("again")

    threads = [threading.Thread(target=copy) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["again"] * 3 + ["saved"]

    # The race the check before the version cannot see: the other copy commits between this
    # copy's look for its id and its insert.
    real, looks = store._has_deal, []

    def has_deal(cur, sheet_id: str, deal_id: str) -> bool:
        looks.append(deal_id)
        return len(looks) > 1 and real(cur, sheet_id, deal_id)  # the first look misses it

    store._has_deal = has_deal  # type: ignore[method-assign]
    try:
        with pytest.raises(AlreadySaved):
            store.add_deal(sheet, 4, {"n": 3}, "ba9876543210")
    finally:
        del store._has_deal
    assert len(looks) == 2  # refused by the primary key at the insert, then found
    loaded, _, deals = store.load(sheet.edit_key)
    assert [d.data["n"] for d in deals] == [1, 2, 3] and loaded.version == 4


def test_the_list_of_a_devices_sheets_in_one_query(store, monkeypatch):
    plain = store.create_sheet(["A", "B", "C", "D"], "ddv", False, 0)
    imported = store.create_sheet(["E", "F", "G", "H"], "ddv", False, 0, [{"n": 1}, {"n": 2}], imported=True)
    store.add_deal(plain, 1, {"n": 1})
    opened = []
    real = store._transaction

    def counted(write=True):
        opened.append(write)
        return real(write)

    monkeypatch.setattr(store, "_transaction", counted)
    listed = store.listed([imported.view_key, "x" * 22, plain.edit_key, plain.edit_key])
    assert opened == [False]  # one transaction, a read that waits for no writer
    assert [(item.key, item.editor, item.deals, item.imported) for item in listed] == [
        (imported.view_key, False, 2, True), (plain.edit_key, True, 1, False)]
    assert listed[1].sheet.version == 2 and listed[1].created.tzinfo is not None
    assert store.listed([]) == []


def test_an_older_database_gets_the_new_column_and_keeps_its_sheets(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("""CREATE TABLE sheets (id TEXT PRIMARY KEY, edit_key TEXT NOT NULL UNIQUE, view_key TEXT NOT NULL
        UNIQUE, players TEXT NOT NULL, rules TEXT NOT NULL, bock INTEGER NOT NULL, first_dealer INTEGER NOT NULL,
        version INTEGER NOT NULL, created TEXT NOT NULL)""")
    conn.execute("INSERT INTO sheets VALUES ('s', 'e' , 'v', '[\"A\",\"B\",\"C\",\"D\"]', 'ddv', 0, 0, 1, "
                 "'2026-11-30T20:00:00+00:00')")
    conn.commit()
    conn.close()
    store = Store(f"sqlite:///{path}")
    assert [(item.sheet.players, item.imported) for item in store.listed(["e"])] == [(("A", "B", "C", "D"), False)]
    assert store.listed(["e"])[0].created.day == 30


def test_sqlite_connections_are_kept_between_calls_and_a_broken_one_is_not(tmp_path, monkeypatch):
    import sqlite3

    opened = []
    real = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: opened.append(1) or real(*a, **k))
    store = Store(f"sqlite:///{tmp_path}/sheets.sqlite3")
    sheet = store.create_sheet(["A", "B", "C", "D"], "ddv", False, 0)
    before = len(opened)
    for _ in range(5):
        store.load(sheet.view_key)
        store.add_deal(store.find(sheet.edit_key)[0], store.find(sheet.edit_key)[0].version, {"n": 1})
    assert len(opened) == before  # every call on the connection kept from the last one
    with pytest.raises(Conflict):
        store.add_deal(sheet, 1, {"n": 2})  # an old version: rolled back, the connection still good
    assert len(opened) == before and len(store.load(sheet.view_key)[2]) == 5
    store.close()
    store.load(sheet.view_key)
    assert len(opened) == before + 1  # closed with the store, opened again when needed
