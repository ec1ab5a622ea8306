"""End-to-end tests: the real tct binary against the real torch in the project's venv."""
import subprocess
import sys

import pytest

from tct_run import TCT, run_tct


# Modules whose fixtures time fresh processes' start-up (seconds of cold compiles each) and
# compare the forms with one another: on one worker, one after the other, so that neither's
# compiles slow the other's timed starts (two CI runs had the factory form's warm start 1.7x the
# command form's while both fixtures ran at once on two cores).
STARTUP_TIMING = {"test_startup", "test_startup_command"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Under xdist's --dist loadgroup (scripts/test.sh), the tests that share a module-scoped
    fixture run on one worker, so the fixture (a suite, a set of audits: up to a minute of
    compiles) is made once per session rather than once on each worker."""
    for item in items:
        defs = getattr(item, "_fixtureinfo", None)
        defs = defs.name2fixturedefs if defs else {}
        if any(fdefs and fdefs[-1].scope == "module" for fdefs in defs.values()):
            name = item.module.__name__
            item.add_marker(pytest.mark.xdist_group("startup_timing" if name in STARTUP_TIMING else name))


@pytest.fixture
def tct():
    return run_tct


@pytest.fixture(scope="session", autouse=True)
def _binary_exists():
    if not TCT.exists():
        pytest.exit(f"{TCT} is missing: build first (scripts/setup.sh)", returncode=2)


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory):
    """An interpreter without torch (a venv without pip), made once per test session."""
    path = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    return str(path / "bin" / "python")
