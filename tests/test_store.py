"""The sheet store, on SQLite and on a real PostgreSQL: one transaction per write, versions
that keep two phones from overwriting each other, nothing half-written."""
from __future__ import annotations

import threading

import pytest

from tests.postgres import postgres_url
from tutor.store import Conflict, NotFound, Store


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
        assert [listed.key for listed in store.find_many([sheet.view_key])] == [sheet.view_key]
        assert time.monotonic() - start < 2  # a write lock would hold them for the 15 s timeout
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_my_sheets_are_found_in_one_query_in_the_order_asked(store, monkeypatch):
    first = store.create_sheet(["A", "B", "C", "D"], "ddv", False, 0)
    second = store.create_sheet(["E", "F", "G", "H"], "pagat", True, 1, deals=[{"n": 1}, {"n": 2}])
    opened = []
    real = store._transaction

    def counted(write=True):
        opened.append(write)
        return real(write)

    store.setup()
    monkeypatch.setattr(store, "_transaction", counted)
    listed = store.find_many([second.view_key, "x" * 22, first.edit_key])
    assert opened == [False]
    assert [(item.key, item.sheet, item.editor, item.deals) for item in listed] == [
        (second.view_key, second, False, 2), (first.edit_key, first, True, 0)]
    assert all(item.created.startswith("20") for item in listed)
    assert store.find_many([]) == []


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
    from tutor.store import pool_size_from

    with pytest.raises(ValueError, match="DATABASE_POOL_SIZE"):
        pool_size_from({"DATABASE_POOL_SIZE": text})
    assert pool_size_from({}) == 8 and pool_size_from({"DATABASE_POOL_SIZE": " 20 "}) == 20
