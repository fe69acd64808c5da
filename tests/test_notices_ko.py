"""Notices from the configuration and the kiosk, on a Korean table: said in Korean on its
screen, in English as before everywhere else (the journal, the command line)."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import errno  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import sqlite3  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import types  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

import companion.app.devices as devices  # noqa: E402
import companion.kiosk.history as history_module  # noqa: E402
import companion.kiosk.runtime as runtime  # noqa: E402
import companion.kiosk.session as session_module  # noqa: E402
from companion.app.controller import Controller  # noqa: E402
from companion.app.i18n import Notice, notice_of, tr  # noqa: E402
from companion.app.inputs import Press  # noqa: E402
from companion.app.screens.table import TableScreen  # noqa: E402
from companion.cli import main  # noqa: E402
from companion.config import load_config  # noqa: E402
from companion.engine import Game  # noqa: E402
from companion.kiosk.history import History, HistoryError  # noqa: E402
from companion.kiosk.power import shutdown  # noqa: E402
from companion.kiosk.runtime import Kiosk  # noqa: E402
from companion.kiosk.session import TableSession  # noqa: E402
from companion.tablelog import replay_file  # noqa: E402
from tests.app_fakes import MemoryLog  # noqa: E402
from tests.test_app_screens import _missing, display  # noqa: E402, F401 - display: the screen
from tests.test_config import write  # noqa: E402
from tests.test_kiosk_history import FailingConnection, finished_game  # noqa: E402
from tests.test_kiosk_power import Recorder  # noqa: E402
from tests.test_kiosk_session import _full_disk, planned  # noqa: E402
from vision.sources import (  # noqa: E402
    OpenCVSource,
    PiCamera2Source,
    SourceConfigError,
    check_config,
)

HANGUL = re.compile("[\uac00-\ud7a3]")
# Our own English, which a Korean screen must not show (another program's words may stay).
ENGLISH = re.compile(r"\b(default|left out|mistake|give|choose|unknown|did you mean|belongs|"
                     r"range|cannot|could not|ignored|starting|using|the game|the table|"
                     r"history|saved|switched|restarted|is empty|a name|number)\b", re.I)


def korean(notice: str, *allowed: str) -> str:
    """The notice as a Korean screen says it, checked: Korean, and none of our English
    (``allowed``: the words of others it may quote, such as a path)."""
    assert isinstance(notice, Notice), notice
    said = tr("ko", notice.key, **notice.args)
    assert HANGUL.search(said), said
    rest = said
    for words in allowed:
        rest = rest.replace(words, "")
    assert not ENGLISH.search(rest), said
    return said


def seat(n):
    return Press("seat", n)


# ----- the configuration -------------------------------------------------------------------

# name -> (the file, the English as it was, a part of the Korean). {where} is the file's path.
CONFIG_CASES = {
    "missing": (None, "No configuration file at {where}: starting with the default settings.",
                "설정 파일이 없습니다"),
    "folder": ("folder", "The configuration {where} is a folder, not a file: starting with the "
               "default settings.", "파일이 아니라 폴더가 있습니다: 기본 설정으로 시작합니다."),
    "not text": (b"\xff\xfe\x00\xd8", "The configuration {where} is not text that can be "
                 "read. Starting with the default settings.",
                 "읽을 수 있는 텍스트가 아닙니다. 기본 설정"),
    "not utf-8": ('seats = 4\nnames = ["José"]\n'.encode("latin-1"),
                  "The configuration {where} has a mistake on line 2: it is not UTF-8 text. "
                  "That line is left out: its setting keeps its default. Save the file as "
                  "UTF-8.", "2번째 줄에 오류가 있습니다: UTF-8 텍스트가 아닙니다"),
    "nested": ("x = " + "[" * 100_000 + "\n", "The configuration {where} has a mistake: its "
               "values are nested too deeply to read. Starting with the default settings.",
               "값이 너무 깊이 중첩되어 읽을 수 없습니다. 기본 설정으로 시작합니다."),
    "bad line": ('language = "ko"\nseats = \n', "The configuration {where} has a mistake on "
                 "line 2 (seats =): Invalid value. That line is left out: its setting keeps "
                 "its default.", "2번째 줄(seats =)에 오류가 있습니다: Invalid value. 그 줄은"),
    "overwrite": ("seats = 4\nseats = 5\n", "The configuration {where} has a mistake on line 2 "
                  "(seats = 5): Cannot overwrite a value. That line is left out: the first one "
                  "counts.", "처음 것이 적용됩니다"),
    "section out": ('seats = 3\n[camera\nkind = "synthetic"\n', "The configuration {where} has "
                    "a mistake on line 2 ([camera): Expected ']' at the end of a table "
                    "declaration. That section is left out: its settings keep their defaults.",
                    "그 섹션은 빼고 읽으며"),
    "section twice": ('[camera]\nkind = "opencv"\n[camera]\ndevice = 2\n', "The configuration "
                      "{where} has a mistake on line 3 ([camera]): Cannot declare ('camera',) "
                      "twice. That section was begun before: its settings here are left out; "
                      "put them in the first one.", "처음 섹션에 넣으세요"),
    "setting out": ('names = [\n "Ann",\n Ben,\n]\n', "The configuration {where} has a mistake "
                    "on line 1 (names = [): Invalid value. That setting is left out: it keeps "
                    "its default.", "그 설정은 빼고 읽으며"),
    "line out": ("hello\nseats = 3\n", "The configuration {where} has a mistake on line 1 "
                 "(hello): Expected '=' after a key in a key/value pair. That line is left "
                 "out.", "그 줄은 빼고 읽습니다."),
    "language": ('language = "fr"', "{where}: language = 'fr': choose one of 'en', 'ko'; using "
                 "the default.", "'en', 'ko' 중 하나를 고르세요. 기본값을 씁니다."),
    "seats": ('seats = "four"', "{where}: seats = 'four': give a whole number from 2 to 6; "
              "using the default.", "2부터 6까지의 정수를 쓰세요"),
    "seats range": ("seats = 9", "{where}: seats = 9: out of range: give a whole number from 2 "
                    "to 6; using the default.", "범위를 벗어났습니다"),
    "names": ('names = "Ann,Ben"', "{where}: names = 'Ann,Ben': give the names by seat in a "
              'list, e.g. ["Ann", "Ben", "Cat"]; using the default.', "목록으로 쓰세요"),
    "names count": ("names = []", "{where}: names = []: give 1 to 6 names, one per seat; using "
                    "the default.", "1개부터 6개까지"),
    "name empty": ('names = ["Ann", ""]', "{where}: names = ['Ann', '']: a name is empty; "
                   "using the default.", "빈 이름이 있습니다"),
    "name control": ('names = ["Ann\\u0001", "Ben"]', "{where}: names = ['Ann\\x01', 'Ben']: "
                     "'Ann\\x01' cannot be a name: it holds a control character; using the "
                     "default.", "제어 문자"),
    "name shared": ('names = ["Ann", "Ann "]', "{where}: names = ['Ann', 'Ann ']: two seats "
                    "cannot share the name 'Ann'; using the default.", "같은 이름('Ann')"),
    "fraction": ('[hardware]\nled_brightness = "max"', "{where}: hardware.led_brightness = "
                 "'max': give a number from 0.0 to 1.0; using the default.",
                 "0.0부터 1.0까지의 수를 쓰세요"),
    "fraction range": ("[hardware]\nled_brightness = 2", "{where}: hardware.led_brightness = 2: "
                       "out of range: give a number from 0.0 to 1.0; using the default.",
                       "범위를 벗어났습니다"),
    "seconds": ('[kiosk]\nattract_after = "2m"', "{where}: kiosk.attract_after = '2m': give a "
                "number of seconds (0 for never); using the default.", "초 단위의 수"),
    "seconds range": ("[kiosk]\nattract_after = -5", "{where}: kiosk.attract_after = -5: give a "
                      "number of seconds from 0 up (0 for never); using the default.",
                      "0 이상의 초 단위 수"),
    "path": ("[hardware]\npins = 7", "{where}: hardware.pins = 7: give a file or folder path "
             'in quotes, e.g. "/var/lib/abraca-companion"; using the default.', "따옴표 안에"),
    "path nul": ('[storage]\nlog = "a\\u0000b"', "{where}: storage.log = 'a\\x00b': a path "
                 "cannot contain a NUL character; using the default.", "NUL 문자"),
    "camera table": ('camera = "pi"', "{where}: camera: expected a [camera] table, e.g. kind = "
                     '"picamera2"; using the default camera (picamera2).',
                     "[camera] 섹션이어야 합니다. 예: kind = \"picamera2\". 기본 카메라"),
    "camera kind": ("[camera]\ndevice = 0", "{where}: camera: the camera needs a kind, e.g. "
                    'kind = "picamera2" or kind = "opencv"; using the default camera '
                    "(picamera2).", "카메라에 kind가 있어야 합니다"),
    "not a section": ('hardware = "gpio"', "{where}: hardware = 'gpio': expected a [hardware] "
                      "section; using its defaults.", "[hardware] 섹션이어야 합니다"),
    "unknown": ('colour = "red"', "{where}: unknown setting colour; ignored.",
                "알 수 없는 설정 colour. 무시합니다."),
    "did you mean": ('langauge = "ko"', "{where}: unknown setting langauge (did you mean "
                     "'language'?); ignored.", "langauge ('language'의 오타인가요?)"),
    "did you mean, in a section": ("[hardware]\nled_brigthness = 0.2", "{where}: unknown "
                                   "setting hardware.led_brigthness (did you mean "
                                   "'led_brightness'?); ignored.", "오타인가요?"),
    "belongs in": ("attract_after = 30", "{where}: unknown setting attract_after (it belongs "
                   "in the [kiosk] section); ignored.", "([kiosk] 섹션에 넣어야 합니다)"),
}


def _config(tmp_path, text):
    if text is None:
        return tmp_path / "config.toml"
    if text == "folder":
        (tmp_path / "config.toml").mkdir()
        return tmp_path / "config.toml"
    return write(tmp_path, text)


@pytest.mark.parametrize("case", CONFIG_CASES)
def test_a_configuration_notice_is_said_in_korean_and_in_english_as_before(tmp_path, case):
    text, english, part = CONFIG_CASES[case]
    path = _config(tmp_path, text)
    _config_, warnings = load_config(path, environ={"STATE_DIRECTORY": str(tmp_path)})
    assert warnings == [english.format(where=path)]
    said = korean(warnings[0], str(path), "Invalid value", "Cannot overwrite a value",
                  "Cannot declare ('camera',) twice", "Expected ']' at the end of a table "
                  "declaration", "Expected '=' after a key in a key/value pair")
    assert part in said, said


def test_a_configuration_that_cannot_be_read_keeps_the_systems_words(tmp_path, monkeypatch):
    path = write(tmp_path, "seats = 4\n")

    def refuse(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", refuse)
    _config_, warnings = load_config(path, environ={})
    assert warnings == [f"Cannot read the configuration {path} (Permission denied): starting "
                        "with the default settings."]
    assert korean(warnings[0], str(path), "Permission denied") == (
        f"설정 파일({path})을 읽을 수 없습니다 (Permission denied): 기본 설정으로 시작합니다.")


def _table(tmp_path, config_text, *, language="ko"):
    """A kiosk on that configuration and its table, the notices shown as `companion run`
    shows them (commands.cmd_run)."""
    path = write(tmp_path, config_text)
    kiosk = Kiosk.start(path, environ={"STATE_DIRECTORY": str(tmp_path / "state")},
                        fsync=False)
    ctl = Controller(Game, open_log=kiosk.session.open_log, camera=False, language=language,
                     keep_settings=kiosk.change_settings,
                     shutdown=lambda: kiosk.shutdown(reboot=False))
    notices = kiosk.take_messages()
    for notice in notices:
        ctl.notice(notice)
    return kiosk, ctl, notices


def shown(ctl) -> str:
    key, args = ctl.message
    return tr(ctl.language, key, **args)


def test_the_configurations_notices_reach_a_korean_screen_in_korean_one_after_another(tmp_path):
    kiosk, ctl, _notices = _table(tmp_path, 'seats = 9\nlangauge = "ko"\n')
    try:
        first = shown(ctl)
        assert first.endswith("seats = 9: 범위를 벗어났습니다: 2부터 6까지의 정수를 쓰세요. "
                              "기본값을 씁니다.")
        ctl.handle(seat(1))  # a press shows the next, and still counts
        assert shown(ctl).endswith("알 수 없는 설정 langauge ('language'의 오타인가요?). "
                                   "무시합니다.")
        ctl.handle(seat(2))
        assert ctl.message is None and ctl.joined == [1, 2]
        ctl.language = "en"  # the operator's menu: the same notice, now in English
        ctl.notice(Notice("notice.config_missing", where="/etc/x.toml"))
        assert shown(ctl) == "No configuration file at /etc/x.toml: starting with the default " \
                             "settings."
    finally:
        kiosk.stop()


def test_a_keyed_notice_waits_for_the_one_shown_and_comes_back_after_a_prompt():
    """As notice() always did: each is seen, and one replaced without a press comes back."""
    ctl = Controller(Game, open_log=lambda e: MemoryLog(), camera=False, language="ko")
    ctl.notice("seats = 9: out of range")  # a plain sentence, shown as it is
    ctl.notice(Notice("notice.config_missing", where="/etc/x.toml"))
    ctl.notice_key("notice.config_folder", where="/etc/y.toml")
    assert ctl.message == ("msg.notice", {"text": "seats = 9: out of range"})
    ctl.handle(seat(1))
    assert ctl.message == ("notice.config_missing", {"where": "/etc/x.toml"})
    ctl.notice_key("msg.hand_over")  # from outside the flow, no press: it goes first
    assert ctl.message[0] == "msg.hand_over"
    ctl.handle(seat(2))
    assert ctl.message == ("notice.config_missing", {"where": "/etc/x.toml"})
    ctl.handle(seat(3))
    assert shown(ctl) == "설정 파일 자리(/etc/y.toml)에 파일이 아니라 폴더가 있습니다: 기본 " \
                         "설정으로 시작합니다."
    ctl.handle(seat(4))
    assert ctl.message is None and ctl.joined == [1, 2, 3, 4]


def assert_drawn_in_korean(ctl, said: str | None = None) -> None:
    """The table screen draws ctl's notice (or ``said``) in Korean, with a glyph for every
    character."""
    said = shown(ctl) if said is None else said
    screen = TableScreen((1280, 720), card_art=False)
    screen.draw(pygame.Surface((1280, 720)), ctl)
    lines = [(text, size, bold) for (text, size, _colour, bold) in screen._text
             if HANGUL.search(text) and text in said]
    assert lines, said
    for line, size, bold in lines:
        assert not _missing(screen.font(size, bold), line), line
    for bold in (False, True):  # the rest too, should a larger screen show it
        assert not _missing(screen.font(22, bold), said), said


@pytest.mark.parametrize("case", CONFIG_CASES)
def test_a_korean_configuration_notice_has_every_glyph_on_the_screen(tmp_path, case):
    text, _english, _part = CONFIG_CASES[case]
    _config_, warnings = load_config(_config(tmp_path, text), environ={})
    ctl = Controller(Game, open_log=lambda e: MemoryLog(), camera=False, language="ko")
    ctl.notice(warnings[0])
    assert_drawn_in_korean(ctl)


# ----- the camera's settings ---------------------------------------------------------------

# name -> ([camera] section, the English as it was after "camera: ", a part of the Korean).
CAMERA_CASES = {
    "zero or more": ('kind = "picamera2"\nexposure_us = nan', "camera setting exposure_us = nan: "
                 "give a number of 0 or more",
                 "카메라 설정 exposure_us = nan: 0 이상의 수를 쓰세요"),
    "pair": ('kind = "picamera2"\nsize = [640]', "camera setting size = [640]: give two "
             "positive numbers, e.g. [640, 480]", "양수 두 개를 쓰세요. 예: [640, 480]"),
    "kind": ('kind = "telescope"', "camera kind 'telescope' is unknown: choose one of picamera2, "
             "opencv, folder, synthetic", "알 수 없는 카메라 kind 'telescope'"),
    "unknown": ('kind = "opencv"\ncolour = 3', "camera setting 'colour' is unknown for kind "
                "'opencv'; known settings: device, width, height, fps, loop",
                "kind 'opencv'의 카메라에는 'colour' 설정이 없습니다. 쓸 수 있는 설정: device"),
    "folder": ('kind = "folder"', 'a folder camera needs a path, e.g. path = "frames/"',
               '폴더 카메라에는 path가 있어야 합니다. 예: path = "frames/"'),
    "device": ('kind = "opencv"\ndevice = -1', "camera setting device = -1: give a device "
               "number (0, 1, ...) or a video file path", "장치 번호(0, 1, ...)나 동영상 파일"),
    "synthetic unknown": ('kind = "synthetic"\ncolour = "red"', "camera setting 'colour' is "
                          "unknown for kind 'synthetic'; known settings: size, fps, settle, "
                          "tilt, blur, noise, seed, a, b", "kind 'synthetic'의 카메라에는"),
    "synthetic size": ('kind = "synthetic"\nsize = [16, 16]', "camera setting size = [16, 16]: "
                       "give a width and height in pixels, each from 32 to 4096, e.g. "
                       "size=640x480",
                       "각각 32에서 4096 사이의 픽셀 수로 쓰세요. 예: size=640x480"),
    "synthetic most": ('kind = "synthetic"\nblur = 50.0', "camera setting blur = 50.0: give a "
                       "number from 0 to 10.0, e.g. blur=0.6", "0에서 10.0 사이의 수를 쓰세요"),
    "whole": ('kind = "synthetic"\nseed = "abc"', "camera setting seed = 'abc': give a whole "
              "number of 0 or more, e.g. seed=3", "0 이상의 정수를 쓰세요. 예: seed=3"),
    "number": ('kind = "synthetic"\nnoise = -1', "camera setting noise = -1: give a number of 0 "
               "or more, e.g. noise=3.0", "0 이상의 수를 쓰세요. 예: noise=3.0"),
    "above 0": ('kind = "synthetic"\nfps = 0', "camera setting fps = 0: give a number above 0, "
                "e.g. fps=15.0", "0보다 큰 수를 쓰세요. 예: fps=15.0"),
    # Said at start-up: found only as the camera opened, the table showed a camera that
    # never answers.
    "no lores": ('kind = "picamera2"\ndetect_on_lores = true', "detect_on_lores needs a lores "
                 "size, e.g. lores = [640, 480]", "detect_on_lores에는 lores 크기가 있어야 합니다"),
}


@pytest.mark.parametrize("case", CAMERA_CASES)
def test_a_camera_setting_is_said_in_korean_and_in_english_as_before(tmp_path, case):
    section, english, part = CAMERA_CASES[case]
    path = write(tmp_path, f"[camera]\n{section}\n")
    _config_, warnings = load_config(path, environ={})
    assert warnings == [f"{path}: camera: {english}; using the default camera (picamera2)."]
    said = korean(warnings[0], str(path))
    assert part in said and said.endswith(". 기본 카메라(picamera2)를 씁니다."), said
    ctl = Controller(Game, open_log=lambda e: MemoryLog(), camera=False, language="ko")
    ctl.notice(warnings[0])
    assert_drawn_in_korean(ctl)


def test_a_bad_camera_setting_is_said_on_a_korean_tables_screen_when_it_runs(tmp_path, capsys,
                                                                              monkeypatch):
    """`companion run` with language = "ko": the screen says it in Korean, the journal in
    English as before."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    path = write(tmp_path, 'language = "ko"\n[camera]\nkind = "picamera2"\nexposure_us = nan\n')
    drawn: list[str] = []
    blit_text = TableScreen.blit_text

    def drawing(self, dst, s, *args, **kwargs):
        drawn.append(s)
        return blit_text(self, dst, s, *args, **kwargs)

    monkeypatch.setattr(TableScreen, "blit_text", drawing)
    cameras: list[dict] = []

    def open_camera(config, inputs, references):
        cameras.append(config)
        return None, "no camera in this test", ("warn.no_camera", {})

    monkeypatch.setattr(devices, "open_camera", open_camera)
    monkeypatch.setattr(pygame, "quit", lambda: None)  # the module's screen stays for the rest
    assert main(["run", "--config", str(path), "--size", "1280x720", "--quit-after", "0.3"]) == 0
    assert cameras == [{"kind": "picamera2"}]  # the default camera instead
    assert (f"companion: warning: {path}: camera: camera setting exposure_us = nan: give a "
            "number of 0 or more; using the default camera (picamera2).") in capsys.readouterr().err
    assert ("camera: 카메라 설정 exposure_us = nan: 0 이상의 수를 쓰세요. 기본 카메라(picamera2)를 "
            "씁니다.") in " ".join(drawn)


# name -> (what refuses, its English as it was, a part of the Korean)
REFUSALS = {
    "not a table": (lambda: check_config("opencv"), "camera configuration 'opencv': expected a "
                    "table of settings with a kind", "kind가 있는 설정 섹션이어야 합니다"),
    "no video": (lambda: OpenCVSource("O"), "the video file 'O' does not exist (a webcam is "
                 "given by its number, e.g. opencv:0)",
                 "동영상 파일('O')이 없습니다 (웹캠은 번호로 씁니다. 예: opencv:0)"),
    "not a video": (lambda: OpenCVSource(__file__), f"the video file {__file__!r} cannot be "
                    "played (damaged, or a format OpenCV does not know)",
                    "을 재생할 수 없습니다 (손상되었거나"),
    "no lores": (lambda: PiCamera2Source(detect_on_lores=True), "detect_on_lores needs a lores "
                 "size, e.g. lores = [640, 480]", "detect_on_lores에는 lores 크기가 있어야 합니다"),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_the_camera_sources_own_refusals_are_said_in_korean_too(monkeypatch, case):
    """The refusals of a camera as it opens (the table's journal, the command line): in
    English as before, and a Notice should a Korean screen say one."""
    refused, english, part = REFUSALS[case]
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=None))
    with pytest.raises(SourceConfigError) as refusal:
        refused()
    assert str(refusal.value) == english
    assert part in korean(notice_of(refusal.value)), english


def test_a_setting_refused_as_the_camera_opens_is_said_on_a_korean_tables_screen():
    """A video file that is not there is found only as the camera opens: the screen said
    only that the camera did not answer, and the reason (with its opencv:0 hint) went to
    the journal alone."""
    from companion.app.devices import CameraFeed
    from companion.app.loop import App
    from vision.sources import ResilientSource

    ctl = Controller(Game, open_log=lambda e: MemoryLog(), camera=True, language="ko")
    app = App(ctl, clock=lambda: 0.0)
    source = ResilientSource(lambda: OpenCVSource("O"), clock=lambda: 0.0)
    app.camera = CameraFeed(source, None, app.inputs)
    for _ in range(3):
        app.step()
    assert source.status == "misconfigured" and ctl.camera is False
    assert ctl.message[0] == "notice.camera_refused"
    said = shown(ctl)
    assert "동영상 파일('O')이 없습니다 (웹캠은 번호로 씁니다. 예: opencv:0)" in said, said
    assert [m for m in ctl._notices if m[0] == "notice.camera_refused"] == []  # told once
    assert_drawn_in_korean(ctl)


# ----- the operator's settings -------------------------------------------------------------

# name -> (settings.json, the English as it was, a part of the Korean). {path}: the file.
SETTINGS_CASES = {
    "not json": ("{", "The operator's settings in {path} could not be read (it is damaged on "
                 "line 1); using the configuration's.",
                 "운영자 설정({path})을 읽을 수 없습니다 (1번째 줄이 손상됨)"),
    "nested": ("[" * 100_000, "The operator's settings in {path} could not be read (nested too "
               "deeply); using the configuration's.",
               "(너무 깊이 중첩됨): 설정 파일의 설정을 씁니다."),
    "not an object": ("[1]", "The operator's settings in {path} are not a JSON object; using "
                      "the configuration's.", "JSON 객체가 아닙니다"),
    "bad value": ('{"seats": 9}', "{path}: seats = 9: out of range: give a whole number from 2 "
                  "to 6; ignored.", "seats = 9: 범위를 벗어났습니다: 2부터 6까지의 정수를 쓰세요. "
                  "무시합니다."),
    "unknown": ('{"colour": "red"}', "{path}: unknown operator setting colour; ignored.",
                "알 수 없는 운영자 설정 colour. 무시합니다."),
}


@pytest.mark.parametrize("case", SETTINGS_CASES)
def test_an_operator_settings_notice_is_said_in_korean_and_in_english_as_before(tmp_path,
                                                                                 case):
    text, english, part = SETTINGS_CASES[case]
    state = tmp_path / "state"
    state.mkdir()
    path = state / "settings.json"
    path.write_text(text, encoding="utf-8")
    kiosk, ctl, notices = _table(tmp_path, "seats = 4\n")
    try:
        assert notices == [english.format(path=path)]
        assert korean(notices[0], str(path)) == shown(ctl)
        assert part.format(path=path) in shown(ctl)
        assert_drawn_in_korean(ctl)
    finally:
        kiosk.stop()


def test_a_setting_refused_or_not_kept_is_said_in_the_menu_in_korean(tmp_path, monkeypatch):
    kiosk, ctl, _notices = _table(tmp_path, "seats = 4\n", language="en")
    try:
        refused = kiosk.change_settings(seats=9)
        assert refused == "That setting cannot be used: seats = 9: out of range: give a whole " \
                          "number from 2 to 6."
        assert korean(refused) == "그 설정은 쓸 수 없습니다: seats = 9: 범위를 벗어났습니다: " \
                                  "2부터 6까지의 정수를 쓰세요."

        def full(state_dir, settings):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(runtime, "save_settings", full)
        ctl.handle(Press("operator"))
        ctl.handle(seat(1))  # English -> 한국어, which cannot be kept
        assert ctl.language == "ko"
        key, args = ctl.menu.note
        assert tr("en", key, **args) == "The setting applies now but could not be kept for " \
                                        "the next start (No space left on device)."
        said = tr("ko", key, **args)
        assert said == "설정은 지금 적용되지만, 다음에 켤 때까지 남도록 저장하지는 못했습니다 " \
                       "(No space left on device)."
        assert_drawn_in_korean(ctl, said)
    finally:
        kiosk.stop()


# ----- safe shutdown -----------------------------------------------------------------------

# name -> (restart, what systemctl does, the English as it was, the Korean)
SHUTDOWN_CASES = {
    "no systemd": (False, Recorder(raises=FileNotFoundError(2, "No such file")),
                   "This computer cannot be switched off from the table (no systemd here).",
                   "이 컴퓨터는 테이블에서 끌 수 없습니다 (systemd가 없습니다)."),
    "no answer": (True, Recorder(raises=subprocess.TimeoutExpired("x", 20)),
                  "The table could not be restarted: the system did not answer.",
                  "테이블을 다시 시작할 수 없었습니다: 시스템이 응답하지 않았습니다."),
    "cannot run": (False, Recorder(raises=PermissionError(13, "Permission denied")),
                   "The table could not be switched off (Permission denied).",
                   "테이블을 끌 수 없었습니다 (Permission denied)."),
    "refused": (False, Recorder(returncode=1, stderr="Call to PowerOff failed: Access denied\n"),
                "The table could not be switched off (Call to PowerOff failed: Access denied). "
                "Is the companion installed with scripts/install-kiosk.sh?",
                "테이블을 끌 수 없었습니다 (Call to PowerOff failed: Access denied). companion을 "
                "scripts/install-kiosk.sh로 설치했는지 확인하세요."),
    "refused, no reason": (True, Recorder(returncode=1),
                           "The table could not be restarted. Is the companion installed with "
                           "scripts/install-kiosk.sh?",
                           "테이블을 다시 시작할 수 없었습니다. companion을 "
                           "scripts/install-kiosk.sh로 설치했는지 확인하세요."),
}


@pytest.mark.parametrize("case", SHUTDOWN_CASES)
def test_a_shutdown_that_failed_is_said_in_korean_and_in_english_as_before(case):
    reboot, run, english, said = SHUTDOWN_CASES[case]
    message = shutdown(reboot=reboot, run=run)
    assert message == english
    assert korean(message, "Permission denied", "Call to PowerOff failed: Access denied") == said


def test_a_shutdown_that_failed_is_said_in_the_korean_menu(tmp_path, monkeypatch):
    _reboot, run, _english, said = SHUTDOWN_CASES["refused"]
    monkeypatch.setattr(runtime, "shutdown", lambda reboot: shutdown(reboot=reboot, run=run))
    kiosk, ctl, _notices = _table(tmp_path, "seats = 4\n")
    try:
        ctl.handle(Press("operator"))
        ctl.handle(seat(5))
        ctl.handle(Press("ok"))
        key, args = ctl.menu.note
        assert tr("ko", key, **args) == said
        assert_drawn_in_korean(ctl, said)
    finally:
        kiosk.stop()


# ----- the history -------------------------------------------------------------------------

# name -> (what SQLite says when a finished game is saved, the English as it was, the Korean)
HISTORY_CASES = {
    "full": (sqlite3.OperationalError("database or disk is full"),
             "The game history could not be saved: the disk is full; free some space to keep "
             "the history. The game goes on.",
             "지난 게임 기록을 저장할 수 없습니다: 디스크가 꽉 찼습니다. 기록을 계속 남기려면 "
             "공간을 비우세요. 게임은 계속됩니다."),
    "read-only": (sqlite3.OperationalError("attempt to write a readonly database"),
                  "The game history could not be saved: {path} is read-only. The game goes on.",
                  "지난 게임 기록을 저장할 수 없습니다: 읽기 전용입니다 ({path}). 게임은 "
                  "계속됩니다."),
    "cannot open": (sqlite3.OperationalError("unable to open database file"),
                    "The game history could not be saved: {path} cannot be opened. The game "
                    "goes on.", "지난 게임 기록을 저장할 수 없습니다: 파일을 열 수 없습니다 "
                    "({path}). 게임은 계속됩니다."),
    "damaged": (sqlite3.DatabaseError("database disk image is malformed"),
                "The game history at {path} is damaged, or is no game history (database disk "
                "image is malformed); move it aside to start a new one. The game goes on.",
                "지난 게임 기록 파일({path})이 손상되었거나 게임 기록 파일이 아닙니다 (database "
                "disk image is malformed): 새 기록을 시작하려면 그 파일을 다른 곳으로 옮기세요. "
                "게임은 계속됩니다."),
    "io": (sqlite3.OperationalError("disk I/O error"),
           "The game history could not be saved (disk I/O error). The game goes on.",
           "지난 게임 기록을 저장할 수 없습니다 (disk I/O error). 게임은 계속됩니다."),
}


@pytest.mark.parametrize("case", HISTORY_CASES)
def test_a_history_that_failed_is_said_in_korean_and_in_english_as_before(tmp_path, case):
    error, english, said = HISTORY_CASES[case]
    path = tmp_path / "history.sqlite"
    with History.open(path) as history:
        history._conn = FailingConnection(history._conn, error)
        with pytest.raises(HistoryError) as err:
            history.record_game(*finished_game(["Ann", "Ben"], 1))
    message = str(err.value)
    assert message == english.format(path=path)
    assert err.value.outside_a_game == english.format(path=path).removesuffix(" The game goes on.")
    assert korean(message, str(path), "database disk image is malformed",
                  "disk I/O error") == said.format(path=path)


@pytest.mark.parametrize("case, english, said", [
    ("folder", "The game history cannot be kept at {path}: its folder cannot be made (File "
     "exists). The game goes on.", "지난 게임 기록을 {path}에 남길 수 없습니다: 폴더를 만들 수 "
     "없습니다 (File exists). 게임은 계속됩니다."),
    ("damaged", "The game history at {path} is damaged, or is no game history (file is not a "
     "database); move it aside to start a new one. The game goes on.", "지난 게임 기록 "
     "파일({path})이 손상되었거나 게임 기록 파일이 아닙니다 (file is not a database): 새 기록을 "
     "시작하려면 그 파일을 다른 곳으로 옮기세요. 게임은 계속됩니다."),
], ids=["folder", "damaged"])
def test_a_history_that_cannot_be_opened_is_said_on_a_korean_screen(tmp_path, case, english,
                                                                    said):
    if case == "folder":
        (tmp_path / "blocker").write_text("a file where the folder should be")
        path = tmp_path / "blocker" / "history.sqlite"
    else:
        path = tmp_path / "history.sqlite"
        path.write_bytes(b"this is not a database at all, just some bytes" * 100)
    kiosk, ctl, notices = _table(tmp_path, f"[storage]\ndatabase = '{path}'\n")
    try:
        assert notices == [english.format(path=path)]
        assert korean(notices[0], str(path), "File exists", "file is not a database") \
            == shown(ctl) == said.format(path=path)
        assert_drawn_in_korean(ctl)
    finally:
        kiosk.stop()


# ----- the table log -----------------------------------------------------------------------

def said_in_both(messages, expected, *allowed):
    """Each message in English as before and in Korean: ``expected`` (English, Korean) pairs."""
    assert messages == [english for english, _said in expected]
    for message, (_english, said) in zip(messages, expected, strict=True):
        assert korean(message, *allowed) == said


def torn(log_path, events):
    session = TableSession.open(log_path, fsync=False)
    for event in events:
        session.push(event)
    session.close()
    with open(log_path, "ab") as f:
        f.write(b'{"event":"investigate","player":"A')  # the power went mid-line


TORN = ("The table log's last line (line 9) was cut short, most likely by a power cut, and was "
        "left out: nothing the screen had shown is lost.",
        "게임 기록 파일의 마지막 줄(9번째 줄)이 아마 정전 때문에 중간에 끊겨서 빼고 읽었습니다: "
        "화면에 나왔던 것은 하나도 잃지 않았습니다.")


def test_a_torn_last_line_is_said_in_korean_and_in_english_as_before(tmp_path):
    log_path = tmp_path / "state" / "table.jsonl"
    torn(log_path, planned()[:8])
    said_in_both(TableSession.open(log_path, fsync=False).messages, [TORN])


def test_a_torn_last_line_is_said_on_a_korean_screen_when_the_table_starts(tmp_path):
    torn(tmp_path / "state" / "table.jsonl", planned()[:8])
    kiosk, ctl, _notices = _table(tmp_path, "seats = 4\n")
    try:
        assert shown(ctl) == TORN[1]
        assert_drawn_in_korean(ctl)
    finally:
        kiosk.stop()


def _damaged(log_path, events, line, text):
    session = TableSession.open(log_path, fsync=False)
    for event in events:
        session.push(event)
    session.close()
    lines = log_path.read_text().splitlines()
    lines[line - 1] = text
    log_path.write_text("\n".join(lines) + "\n")
    return replay_file(log_path).error.message  # the table log's own words for the line


def test_a_damaged_log_set_aside_is_said_in_korean_and_in_english_as_before(tmp_path):
    log_path = tmp_path / "state" / "table.jsonl"
    why = _damaged(log_path, planned()[:10], 7, "\x00\x00garbage")
    session = TableSession.open(log_path, fsync=False)
    [kept] = [p for p in log_path.parent.iterdir() if ".damaged-" in p.name]
    said_in_both(session.messages, [
        (f"The table log has a bad line 7 ({why}): the game resumes from just before it; the "
         f"original is kept as {kept.name}.",
         f"게임 기록 파일의 7번째 줄이 잘못되었습니다 ({why}): 그 줄 바로 앞부터 게임을 이어 "
         f"갑니다. 원래 파일은 {kept.name} 이름으로 남겨 두었습니다.")], why, kept.name)


def test_a_damaged_log_that_cannot_be_set_aside_is_said_in_korean(tmp_path, monkeypatch):
    log_path = tmp_path / "state" / "table.jsonl"
    why = _damaged(log_path, planned()[:6], 4, "garbage")

    def refuse(src, dst):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(session_module.os, "replace", refuse)
    said_in_both(TableSession.open(log_path, fsync=False).messages, [
        ("The damaged table log could not be kept aside (Read-only file system).",
         "손상된 게임 기록 파일을 따로 옮겨 두지 못했습니다 (Read-only file system)."),
        (f"The table log has a bad line 4 ({why}): the game resumes from just before it.",
         f"게임 기록 파일의 4번째 줄이 잘못되었습니다 ({why}): 그 줄 바로 앞부터 게임을 이어 "
         "갑니다."),
        ("The game cannot be saved (the damaged log could not be kept aside): play goes on, but "
         "a power cut now would lose the last moves. Check the card.",
         "게임을 저장할 수 없습니다 (손상된 기록 파일을 따로 옮겨 두지 못했습니다): 게임은 계속할 "
         "수 있지만, 지금 전원이 꺼지면 마지막 진행이 사라집니다. 메모리 카드를 확인하세요."),
    ], why, "Read-only file system")


def test_a_log_with_no_game_or_that_cannot_be_read_is_said_in_korean(tmp_path):
    log_path = tmp_path / "state" / "table.jsonl"
    log_path.parent.mkdir(parents=True)
    log_path.write_bytes(b"not a log at all\n")
    why = replay_file(log_path).error.message
    said_in_both(TableSession.open(log_path, fsync=False).messages, [
        (f"The table log holds no game ({why}); the table starts empty.",
         f"게임 기록 파일에 게임이 없습니다 ({why}): 빈 테이블로 시작합니다.")], why)
    log_path.mkdir()  # a folder where the log should be: it cannot be read
    why = replay_file(log_path).error.message
    said_in_both(TableSession.open(log_path, fsync=False).messages, [
        (f"The game in progress could not be read ({why}); the table starts empty.",
         f"진행 중이던 게임을 읽을 수 없습니다 ({why}): 빈 테이블로 시작합니다.")], why)


@pytest.mark.parametrize(("error", "advice", "said"), [
    (OSError(errno.ENOSPC, "No space left on device"), "Free some space on the card.",
     "메모리 카드의 공간을 비우세요."),
    (OSError(errno.EROFS, "Read-only file system"),
     "The card or the table's folder cannot be written: check the card.",
     "메모리 카드나 테이블 폴더에 쓸 수 없습니다: 메모리 카드를 확인하세요."),
    (OSError(errno.EIO, "Input/output error"), "Check the card.", "메모리 카드를 확인하세요."),
], ids=["full", "read-only", "io"])
def test_a_game_that_cannot_be_saved_is_said_on_a_korean_screen(tmp_path, monkeypatch, error,
                                                                advice, said):
    kiosk, ctl, _notices = _table(tmp_path, "seats = 4\n")
    try:
        events = planned()
        kiosk.session.push(events[0])
        broken = _full_disk(monkeypatch, error)
        kiosk.session.push(events[1])
        broken[0] = False
        kiosk.session.push(events[2])
        messages = kiosk.take_messages()
        for message in messages:  # as the main loop shows them (commands.cmd_run)
            ctl.notice(message)
        said_in_both(messages, [
            (f"The game cannot be saved ({error.strerror}): play goes on, but a power cut now "
             f"would lose the last moves. {advice}",
             f"게임을 저장할 수 없습니다 ({error.strerror}): 게임은 계속할 수 있지만, 지금 전원이 "
             f"꺼지면 마지막 진행이 사라집니다. {said}"),
            ("The game is saved again.", "게임을 다시 저장했습니다."),
        ], error.strerror)
        assert shown(ctl) == korean(messages[0], error.strerror)
        assert_drawn_in_korean(ctl)
        ctl.handle(seat(1))
        assert shown(ctl) == "게임을 다시 저장했습니다."
    finally:
        kiosk.stop()


def test_a_game_kept_waiting_for_room_is_said_in_korean(tmp_path, monkeypatch):
    log_path = tmp_path / "state" / "table.jsonl"
    history = History.open(tmp_path / "history.sqlite")
    session = TableSession.open(log_path, history=history, fsync=False)
    events = planned()
    full = _full_disk(monkeypatch)
    for event in events:
        session.push(event)
    session.new_game({"event": "game", "players": ["Dan", "Eve"]})  # before there is room
    full[0] = False

    def damaged(self, *args, **options):
        raise history_module._storage_error(sqlite3.DatabaseError("file is not a database"),
                                            "h", "saved")

    monkeypatch.setattr(History, "record_game", damaged)
    session.retry_save()
    games = log_path.parent / "games"
    said_in_both(session.messages[2:], [  # after the disk was found full as the game ended
        ("The last game could not be saved before the table was cleared: it is kept until "
         "there is room again, and saved then.",
         "테이블을 비우기 전에 지난 게임을 저장하지 못했습니다: 공간이 생길 때까지 보관했다가 "
         "그때 저장합니다."),
        ("The game cannot be saved (No space left on device): play goes on, but a power cut "
         "now would lose the last moves. Free some space on the card.",
         "게임을 저장할 수 없습니다 (No space left on device): 게임은 계속할 수 있지만, 지금 "
         "전원이 꺼지면 마지막 진행이 사라집니다. 메모리 카드의 공간을 비우세요."),
        (f"A game kept waiting for room is saved in {games}, but the history could not take it "
         "(The game history at h is damaged, or is no game history (file is not a database); "
         "move it aside to start a new one. The game goes on.).",
         f"공간을 기다리던 게임을 {games} 폴더에 저장했지만, 지난 게임 기록에는 넣지 못했습니다 "
         "(지난 게임 기록 파일(h)이 손상되었거나 게임 기록 파일이 아닙니다 (file is not a "
         "database): 새 기록을 시작하려면 그 파일을 다른 곳으로 옮기세요. 게임은 계속됩니다.)."),
        ("The game is saved again.", "게임을 다시 저장했습니다."),
    ], str(games), "file is not a database", "No space left on device")
    history.close()


def test_a_finished_game_the_history_refuses_is_said_in_korean(tmp_path, monkeypatch):
    history = History.open(tmp_path / "history.sqlite")
    history._conn = FailingConnection(history._conn,
                                      sqlite3.OperationalError("database or disk is full"))
    session = TableSession.open(tmp_path / "state" / "table.jsonl", history=history,
                                fsync=False)
    for event in planned():
        session.push(event)
    english, said = HISTORY_CASES["full"][1:]
    said_in_both(session.messages, [(english, said)])
    history.close()


def test_a_log_that_could_not_be_moved_or_was_removed_is_said_in_korean(tmp_path):
    log_path = tmp_path / "state" / "table.jsonl"
    session = TableSession.open(log_path, fsync=False)
    events = planned()
    for event in events[:4]:
        session.push(event)
    shutil.rmtree(log_path.parent)
    session.push(events[4])
    games = log_path.parent / "games"
    games.write_text("a file where the folder should be")
    session.new_game({"event": "game", "players": ["Dan", "Eve"]})
    said_in_both(session.messages, [
        ("The table log was removed while the table ran: it is written again, with the whole "
         "game.", "테이블이 켜져 있는 동안 게임 기록 파일이 지워졌습니다: 게임 전체를 다시 "
         "기록했습니다."),
        (f"The last game's log could not be moved to {games} (File exists).",
         f"지난 게임의 기록 파일을 {games} 폴더로 옮기지 못했습니다 (File exists)."),
    ], str(games), "File exists")


def test_a_finished_game_the_history_cannot_take_is_said_in_korean(tmp_path, monkeypatch):
    """It cannot happen for a game the engine finished; if it does, the table says so."""
    def refuse(self, *args, **options):
        raise ValueError("the final state lists no players")

    monkeypatch.setattr(History, "record_game", refuse)
    history = History.open(tmp_path / "history.sqlite")
    session = TableSession.open(tmp_path / "state" / "table.jsonl", history=history,
                                fsync=False)
    for event in planned():
        session.push(event)
    said_in_both(session.messages, [
        ("The finished game could not go into the history: the final state lists no players.",
         "끝난 게임을 지난 게임 기록에 넣지 못했습니다: the final state lists no players.")],
        "the final state lists no players")
    history.close()
