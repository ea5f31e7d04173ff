"""Per-task state: the shared loop guard and the negative cache (§6.1, §6.2, §6.4)."""

from __future__ import annotations

from shellfree.engine.state import (
    LOOP_BLOCK_AT,
    LOOP_WARN_AT,
    NEGATIVE_CACHE_CAP,
    NEGATIVE_CACHE_TTL,
    LoopGuard,
    NegativeCache,
    TaskState,
)


class TestLoopGuard:
    def test_thresholds(self):
        assert (LOOP_WARN_AT, LOOP_BLOCK_AT) == (3, 4)

    def test_counts_identical_keys_in_a_row(self):
        guard = LoopGuard()
        assert [guard.record(("search", "x")) for _ in range(5)] == [1, 2, 3, 4, 5]

    def test_another_key_restarts_the_count(self):
        guard = LoopGuard()
        guard.record(("search", "x"))
        guard.record(("search", "x"))
        assert guard.record(("read", "f", 1, 2000)) == 1
        assert guard.record(("search", "x")) == 1

    def test_reset(self):
        guard = LoopGuard()
        guard.record("k")
        guard.reset()
        assert (guard.last_key, guard.consecutive) == (None, 0)
        assert guard.record("k") == 1


class TestNegativeCache:
    def test_ttl_is_60_seconds_and_cap_500(self):
        assert (NEGATIVE_CACHE_TTL, NEGATIVE_CACHE_CAP) == (60.0, 500)

    def test_served_until_the_ttl(self, tmp_path, clock):
        cache = NegativeCache(clock)
        missing = str(tmp_path / "missing")
        cache.put("search", missing, "TEXT")
        clock.advance(59.9)
        assert cache.get("search", missing) == "TEXT"
        clock.advance(0.1)
        assert cache.get("search", missing) is None
        assert len(cache) == 0

    def test_dropped_when_the_path_exists(self, tmp_path, clock):
        cache = NegativeCache(clock)
        path = tmp_path / "later"
        cache.put("search", str(path), "TEXT")
        path.mkdir()
        assert cache.get("search", str(path)) is None
        assert len(cache) == 0

    def test_keyed_by_operation(self, tmp_path, clock):
        cache = NegativeCache(clock)
        cache.put("read", str(tmp_path / "x"), "R")
        assert cache.get("search", str(tmp_path / "x")) is None

    def test_oldest_evicted_past_the_cap(self, tmp_path, clock):
        cache = NegativeCache(clock, cap=2)
        for name in "abc":
            cache.put("search", str(tmp_path / name), name)
        assert cache.get("search", str(tmp_path / "a")) is None
        assert cache.get("search", str(tmp_path / "c")) == "c"

    def test_discard_path(self, tmp_path, clock):
        cache = NegativeCache(clock)
        cache.put("read", str(tmp_path / "x"), "R")
        cache.put("search", str(tmp_path / "x"), "S")
        cache.discard_path(str(tmp_path / "x"))
        assert len(cache) == 0


def test_notify_other_tool_call_resets_guard_and_cache(tmp_path, clock):
    state = TaskState(clock)
    state.loop_guard.record("k")
    state.not_found.put("search", str(tmp_path / "x"), "S")
    state.notify_other_tool_call()
    assert state.loop_guard.consecutive == 0 and len(state.not_found) == 0
