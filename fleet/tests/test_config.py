"""The configuration file: what it accepts, and the errors that name what is wrong."""

import pathlib

import pytest

import support
from rlbarcode_fleet import config

EXAMPLE = support.FLEET / "cameras.example.toml"


def test_example_parses():
    cfg = config.load(EXAMPLE)
    assert [c.name for c in cfg.cameras] == ["dock-1", "gate", "replay", "bench"]
    assert cfg.mqtt.port == 1883 and cfg.service.backoff_max == 60.0
    gate = cfg.cameras[1]
    assert gate.live and gate.sync and gate.element["active-region"] == "0.25,0.25,0.5,0.5"
    assert cfg.cameras[2].loop and not cfg.cameras[2].live


@pytest.mark.parametrize("text, message", [
    ('[[camera]]\nname = "a b"\ntype = "test"\n', "'name' must be"),
    ('[[camera]]\nname = "a"\ntype = "usb"\n', "'type' must be one of"),
    ('[[camera]]\nname = "a"\ntype = "rtsp"\n', "needs url"),
    ('[[camera]]\nname = "a"\ntype = "file"\npath = "x"\nurl = "y"\n', "unknown key(s) url"),
    ('[[camera]]\nname = "a"\ntype = "test"\n[[camera]]\nname = "a"\ntype = "test"\n', "used twice"),
    ('[service]\nbackoff-max = "long"\n[[camera]]\nname = "a"\ntype = "test"\n', "must be a number"),
    ('[mqtt]\nhots = "x"\n[[camera]]\nname = "a"\ntype = "test"\n', "unknown key 'hots'"),
    ('[service]\n', "no [[camera]] tables"),
    ('[[camera]]\nname = "a"\ntype = "raw"\npath = "x"\nwidth = "wide"\nheight = 2\n', "width must be an integer"),
    ('[[camera]]\nname = "a"\ntype = "file"\npath = 3\n', "path must be a string"),
    ('[[camera]\n', "cameras.toml"),
])
def test_bad_files_name_the_problem(tmp_path, text, message):
    path = tmp_path / "cameras.toml"
    path.write_text(text)
    with pytest.raises(config.ConfigError) as err:
        config.load(path)
    assert message in str(err.value) and str(path) in str(err.value)


@pytest.mark.needs_plugin
@pytest.mark.parametrize("element, message", [
    ('effort = "slow"', "'slow' is not a valid value of rlbarcode's 'effort'"),
    ('colour = 3', "rlbarcode has no property 'colour'"),
])
def test_bad_element_properties_stop_the_service_before_it_starts(tmp_path, element, message):
    path = tmp_path / "cameras.toml"
    path.write_text(f'[[camera]]\nname = "a"\ntype = "test"\n[camera.element]\n{element}\n')
    proc = support.start_fleet(path)
    assert proc.wait(timeout=30) == 2
    assert message in support.stop_process(proc)
