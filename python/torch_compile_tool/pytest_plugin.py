"""pytest plugin (registered by the wheel's pytest11 entry point).

    def test_mlp_keeps_its_speedup(tct_bench):
        doc = tct_bench("builtin:mlp", backend="aot_eager", budget=2)
        assert_speedup(doc, at_least=1.1)

Tests that use `tct_bench` are marked `tct`, so `pytest -m "not tct"` skips the slow ones.
"""
import pytest

from .api import bench


def pytest_configure(config):
    config.addinivalue_line("markers", "tct: runs tct bench (slow: seconds per target)")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tct_bench" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.tct)


@pytest.fixture
def tct_bench():
    """`tct_bench(target, **options)`: runs `tct bench` and returns its document.

    Options are tct's flags (`budget=2` is `--budget 2`). A failure (outputs differ, the
    target raised, bad options) raises a TctError carrying tct's message and the document.
    """
    return bench
