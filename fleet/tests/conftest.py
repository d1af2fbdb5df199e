import sys
import pathlib

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import support  # noqa: E402


def pytest_collection_modifyitems(config, items):
    if support.plugin_dir() is None:
        skip = pytest.mark.skip(reason="libgstrlbarcode.so not found: set RLBARCODE_RELEASE_BIN "
                                       "(scripts/test.sh does) or build .build/release")
        for item in items:
            if "needs_plugin" in item.keywords:
                item.add_marker(skip)


def pytest_configure(config):
    config.addinivalue_line("markers", "needs_plugin: loads the rlbarcode GStreamer element")


@pytest.fixture
def broker(tmp_path):
    b = support.Broker(tmp_path / "broker")
    b.start()
    yield b
    b.stop()


@pytest.fixture(autouse=True)
def close_subscribers():
    yield
    for sub in list(support.Subscriber.open):
        sub.close()
