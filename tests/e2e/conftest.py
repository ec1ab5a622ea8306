"""End-to-end tests: the real tct binary against the real torch in the project's venv."""
import pytest

from tct_run import TCT, run_tct


@pytest.fixture
def tct():
    return run_tct


@pytest.fixture(scope="session", autouse=True)
def _binary_exists():
    if not TCT.exists():
        pytest.exit(f"{TCT} is missing: build first (scripts/setup.sh)", returncode=2)
