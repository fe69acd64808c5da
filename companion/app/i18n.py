"""Every word the table app shows, in English and Korean.

`tr(lang, key, **args)` gives the text. Arguments named card, guess or winners are turned into
words of the same language (card names, a list of names), and an argument that is a
:class:`Notice` is said in the same language too. A key missing from a language falls back to
English; a key missing everywhere shows the key itself, so a gap is visible, not fatal.

The configuration reader, the camera's settings and the kiosk say what went wrong with a
:class:`Notice`: a string (the English sentence, for the journal and the command line) that
keeps its key and arguments, so the table's screen says it in the table's language.
"""

from __future__ import annotations

import numbers
import re

CARDS = {
    "en": {"ghost": "Ghost", "vampire": "Vampire", "living_armor": "Living Armor",
           "butler": "Butler", "cook": "Cook", "cleaner": "Cleaner"},
    "ko": {"ghost": "유령", "vampire": "뱀파이어", "living_armor": "리빙 아머",
           "butler": "집사", "cook": "요리사", "cleaner": "청소부"},
}

# Colour names used as default player names, shown translated.
COLOURS = {
    "en": {},
    "ko": {"Red": "빨강", "Orange": "주황", "Yellow": "노랑", "Green": "초록", "Blue": "파랑",
           "Purple": "보라"},
}

# The table's buttons as a sentence names them (the {button} argument).
BUTTONS = {
    "en": {"ok": "the OK button", "back": "the Back button", "undo": "the Undo button",
           "seat": "seat {n}'s button"},
    "ko": {"ok": "OK 버튼", "back": "Back 버튼", "undo": "Undo 버튼", "seat": "{n}번 자리 버튼"},
}

CATALOGUE: dict[str, dict[str, str]] = {
    "en": {
        "title": "Abraca Who?",
        "prompt.setup_join": "New game: each player presses their seat button ({count} joined). "
                             "OK to start.",
        "prompt.setup_first": "Who starts? Press their seat button, or OK for a random player.",
        "prompt.turn": "{player}'s turn: press your own button to investigate, "
                       "or another player's to duel.",
        "prompt.answer": "{player} challenges {target}. {target}: press your button to accept, "
                         "Back to refuse.",
        "prompt.guess": "{player}: announce your identity (button 1-6 = card power).",
        "prompt.guess_refused": "{player} refused: announce your identity and investigate "
                                "(button 1-6 = card power).",
        "prompt.lay": "{player}: lay your card face up in slot {zone}.",
        "prompt.lay_duel": "Duel! Lay your cards face up: {player} in slot A, {target} in "
                           "slot B.",
        "prompt.pick": "{player}: pick the card from slot {zone} (button 1-6 = power).",
        "prompt.lay_reveal": "{player} is out: lay the card you held in slot {zone}.",
        "prompt.pick_reveal": "{player} is out: pick the card you held (button 1-6 = power).",
        "prompt.guess_held": "{player}: announce your identity (button 1-3 = card power; held, "
                             "4-6).",
        "prompt.guess_refused_held": "{player} refused: announce your identity and investigate "
                                     "(button 1-3 = card power; held, 4-6).",
        "prompt.pick_held": "{player}: pick the card from slot {zone} (button 1-3 = power; held, "
                            "4-6).",
        "prompt.pick_reveal_held": "{player} is out: pick the card you held (button 1-3 = power; "
                                   "held, 4-6).",
        "prompt.confirm_right": "{player} announced {guess} and holds {card}: right! "
                                "OK to confirm, Back to read again.",
        "prompt.confirm_wrong": "{player} announced {guess} but holds {card}: wrong, 1 damage. "
                                "OK to confirm, Back to read again.",
        "prompt.confirm_duel": "{player} shows {pcard}, {target} shows {tcard}: this ends the "
                               "game. OK to confirm, Back to read again.",
        "prompt.confirm_reveal": "{player} held {card}: this ends the game. OK to confirm, "
                                 "Back to read again.",
        "prompt.summary": "Round {round} is over. OK for the next round.",
        "prompt.over": "{winners} win{s}! OK for a new game.",
        "prompt.wait": "Please wait.",
        "msg.step_cancelled": "Step cancelled.",
        "msg.nothing_to_undo": "Nothing to take back.",
        "msg.undone": "Taken back.",
        "msg.need_two": "At least 2 players must join.",
        "msg.left": "{player} left the new game. Press the seat button to join again.",
        "msg.nobody_joined": "No one has joined yet: each player presses their seat button.",
        "msg.wrong_button": "That button does nothing now.",
        "msg.seat_not_joined": "Seat {seat} has not joined.",
        "msg.refused": "Not allowed: {text}",
        "msg.turn_help": "{player}: press your own button to investigate, or another player's "
                         "to duel.",
        "msg.no_such_seat": "Nobody sits at seat {seat}.",
        "rule.target_out": "{target} is out this round and cannot be challenged.",
        "msg.answer_help": "Waiting for {target}: their button accepts, Back refuses.",
        "rule.must_investigate": "{player} refused the duel and must investigate.",
        "msg.guess_help": "{player}: announce an identity with buttons 1-6.",
        "msg.guess_help_held": "{player}: announce an identity with buttons 1-3 (held: 4-6).",
        "msg.camera_unsure": "The camera cannot read this card: pick it on the screen.",
        "msg.cards_help": "Lay the card in its slot, or press OK to pick it by hand.",
        "rule.too_many": "That cannot be a {card}: only {copies} exist and {seen} are already "
                         "revealed this round. Check the card and show it again.",
        "rule.one_ghost": "There is only one Ghost: both cards cannot be the Ghost. Check the "
                          "cards and show them again.",
        "rule.no_game": "No game has started yet.",
        "rule.game_over": "The game is over: press OK for a new game.",
        "rule.nothing_to_undo": "Nothing to take back: the game has just started.",
        "rule.game_started": "A game is already under way.",
        "rule.no_such_player": "Nobody called {player} plays at this table.",
        "rule.reveal_first": "{players} must first show the card they held.",
        "rule.not_your_turn": "It is {player}'s turn.",
        "rule.challenge_self": "{player} cannot challenge themselves: choose another player.",
        "rule.no_reveal_owed": "{player} has no card to show now.",
        "msg.confirm_help": "OK confirms, Back reads the card again.",
        "msg.ok_to_go_on": "Press OK to go on.",
        "msg.ok_new_game": "Press OK for a new game.",
        "msg.panel_fault": "The health dials are not answering: {text}",
        "msg.log_failed": "The table log cannot be written, so nothing changed: {text}",
        "label.revealed": "Revealed this round",
        "label.aid": "Still unseen",
        "label.deck": "Deck: {n} cards",
        "label.chance": "{pct}%",
        "label.left": "{n} left",
        "label.chance_note": "%: chance an unseen card is this one",
        "label.stones": "Stones",
        "stats.title": "Players",
        "stats.player": "Player",
        "stats.games": "Games",
        "stats.wins": "Wins",
        "stats.total": "{games} finished games",
        "stats.none": "No finished games yet.",
        "stats.more": "and {n} more",
        "label.to_win": "{n} to win",
        "label.hand_out": "Hand out: {threes}x3 + {ones}x1",
        "label.out": "OUT",
        "label.turn": "TURN",
        "label.challenged": "CHALLENGED",
        "label.health": "Health",
        "label.round": "Round {round}",
        "label.events": "Last events",
        "label.undo": "Undo",
        "label.ok": "OK",
        "label.back": "Back",
        "label.lang": "한국어",
        "label.pick": "Pick the card",
        "label.announce": "Which identity do you announce?",
        "label.joined": "joined",
        "label.winners": "Winners",
        "label.summary": "Round summary",
        "label.warning": "Warning",
        "label.setup": "Setup",
        "ev.game": "New game: {players}",
        "ev.investigate_right": "{player} investigated: {card}, right",
        "ev.investigate_wrong": "{player} investigated: {card} (said {guess}), wrong",
        "ev.duel": "{player} {pcard} vs {target} {tcard}",
        "ev.refused": "{target} refused {player}'s duel",
        "ev.reveal": "{player} revealed {card}",
        "fx.damage": "{player} -{amount} health",
        "fx.heal": "{player} +{amount} health",
        "fx.stones": "{player} +{amount} stone{s}",
        "fx.eliminated": "{player} is out!",
        "fx.round_end": "Round {round} ends",
        "fx.game_end": "Game over!",
        "sum.stones": "{player}: +{amount} stone{s}",
        "sum.nothing": "No stones this round.",
        "warn.no_camera": "No camera: cards are picked on the screen.",
        "warn.cards_missing": "No picture of {cards} yet: cards are picked on the screen until "
                              "they are enrolled and the table restarted.",
        "warn.card_unreadable": "The picture of {card} cannot be read ({file}): cards are "
                                "picked on the screen until it is enrolled again and the "
                                "table restarted.",
        "warn.cards_same": "The pictures of {cards} are the same picture ({files}): one is a "
                           "copy. Cards are picked on the screen until the right card is "
                           "enrolled and the table restarted.",
        "warn.no_gpio": "No GPIO: the dials and buttons are shown on the screen.",
        "warn.panel_failed": "The dials and buttons cannot be used ({text}): they are shown on "
                             "the screen.",
        "warn.resumed": "Resumed the unfinished game.",
        "warn.joined": "{text}",
        "msg.notice": "{text}",
        "msg.hand_over": "Autoplay stopped: the table is yours. Keys 1-6, Enter, Esc, U.",
        "warn.camera_waiting": "The camera is not answering: cards are picked on the screen.",
        "warn.slots_poor": "The camera may not read cards in slot {slots}: ask the staff to check "
                           "how it is mounted.",
        "warn.out_of_focus": "The camera's picture is out of focus, so it may not see the cards: "
                             "ask the staff to set its focus.",
        "warn.no_mat": "The camera does not see the mat: when a card is to be laid, press OK and "
                       "pick it by hand. Ask the staff to check the camera.",
        "warn.misfit": "The mat is printed too small, so the camera cannot read the cards: when "
                       "a card is to be laid, press OK and pick it by hand. Ask the staff to "
                       "reprint the mat.",
        "warn.misfit_small": "The cards look smaller than this mat is made for, so the camera "
                             "cannot read them: when a card is to be laid, press OK and pick it "
                             "by hand. Ask the staff to check the mat's size.",
        "menu.title": "Operator menu",
        "menu.hint": "Choose: seat button 1-6, touch, or Undo to move and OK. Back closes.",
        "menu.language": "Language",
        "menu.lang_name": "English",
        "menu.seats": "Seats in use",
        "menu.seats_value": "{n} (from the next game)",
        "menu.brightness": "LED brightness",
        "menu.brightness_value": "{pct}%",
        "menu.brightness_ignored": "{pct}% (kept; these dials ignore it)",
        "menu.camera": "Camera check",
        "menu.shutdown": "Safe shutdown",
        "menu.close": "Close the menu",
        "menu.confirm_shutdown": "Switch the table off? OK switches off, Back cancels.",
        "menu.shutdown_demo": "Demo: the table would switch off now. Nothing was switched off.",
        "menu.shutting_down": "Switching off. Unplug only when the Pi's green light has stopped.",
        "menu.cancelled": "Shutdown cancelled.",
        "menu.camera_checked": "Camera checked just now.",
        "menu.help": "Seat buttons 1-6 choose; or Undo moves down, OK chooses. Back closes.",
        "cam.none": "Camera: none set up. Cards are picked on the screen.",
        "cam.lost": "Camera: not answering. Cards are picked on the screen.",
        "cam.no_mat": "Camera: working, but it does not see the mat. Check that the whole mat "
                      "is in view.",
        "cam.mat": "Camera: working, mat found. Cards seen: {cards}.",
        "cam.mat_empty": "Camera: working, mat found. No card in the slots.",
        "cam.slots_poor": "Camera: mat found, but it sees slot {slots} too slanted or too far to "
                          "read cards there. Mount it straighter above the mat, or closer.",
        "cam.misfit": "Camera: mat found, but cards look {times} times too large on it: print "
                      "the mat on A3 at 100 %.",
        "cam.misfit_small": "Camera: mat found, but cards look {times} times as large as it "
                            "expects: smaller cards, or a mat printed over A3.",
        "cam.out_of_focus": "Camera: mat found, but its picture is out of focus and cards may go "
                            "unseen. Set its focus, then see companion camera-check.",
        "cam.on": "Camera: working. Cards seen: {cards}.",
        "cam.on_empty": "Camera: working. No card in the slots.",
        "msg.seat_not_in_use": "Seat {seat} is not in use at this table (seats 1-{seats}).",
        "attract.press": "Press any button to play",
        "notice.button_stuck": "A button is held down or stuck: {button}. It gives no more "
                               "presses until it comes up. If nobody is pressing it, ask the "
                               "staff to check it.",
        "notice.config_missing": "No configuration file at {where}: starting with the default "
                                 "settings.",
        "notice.config_folder": "The configuration {where} is a folder, not a file: starting with "
                                "the default settings.",
        "notice.config_unreadable": "Cannot read the configuration {where} ({error}): starting "
                                    "with the default settings.",
        "notice.config_not_text": "{what} {where} is not text that can be read.",
        "notice.config_not_utf8": "{what} {where} has a mistake on line {line}: it is not UTF-8 "
                                  "text. That line is left out: its setting keeps its default. "
                                  "Save the file as UTF-8.",
        "notice.config_mistake": "{what} {where} has a mistake: {why}.",
        "notice.config_defaults": "{text} Starting with the default settings.",
        "notice.config_more": "{where}: {count} more problems, not listed here.",
        "notice.config_line": "{what} {where} has a mistake on line {line} ({shown}): {said}.",
        "notice.said_section_twice": "{why}. That section was begun before: its settings here are "
                                     "left out; put them in the first one",
        "notice.said_section_out": "{why}. That section is left out: its settings keep their "
                                   "defaults",
        "notice.said_setting_out": "{why}. That setting is left out: it keeps its default",
        "notice.said_line_out": "{why}. That line is left out",
        "notice.said_first_counts": "{why}. That line is left out: the first one counts",
        "notice.said_default": "{why}. That line is left out: its setting keeps its default",
        "notice.toml_nested": "its values are nested too deeply to read",
        "notice.config_bad_value": "{where}: {name} = {value}: {why}; using the default.",
        "notice.storage_is_folder": "it is a folder, not a file",
        "notice.storage_is_file": "it is a file, not a folder",
        "notice.storage_is_config": "it is this configuration file itself",
        "notice.storage_is_database": "it is the game history's database",
        "notice.config_bad_camera": "{where}: camera: {why}; using the default camera ({kind}).",
        "notice.config_not_section": "{where}: {name} = {value}: expected a [{name}] section; "
                                     "using its defaults.",
        "notice.config_unknown": "{where}: unknown setting {name}{hint}; ignored.",
        "notice.did_you_mean": " (did you mean {word}?)",
        "notice.belongs_in": " (it belongs in the [{section}] section)",
        "notice.unknown_setting": "unknown setting {name}",
        "notice.setting_value": "{name} = {value}: {why}",
        "notice.bad_language": "choose one of {choices}",
        "notice.bad_seats": "give a whole number from {low} to {high}",
        "notice.bad_seats_range": "out of range: give a whole number from {low} to {high}",
        "notice.bad_names": 'give the names by seat in a list, e.g. ["Ann", "Ben", "Cat"]',
        "notice.bad_names_count": "give 1 to {n} names, one per seat",
        "notice.bad_name_empty": "a name is empty",
        "notice.bad_name_control": "{name} cannot be a name: it holds a control character",
        "notice.bad_name_shared": "two seats cannot share the name {name}",
        "notice.bad_fraction": "give a number from 0.0 to 1.0",
        "notice.bad_fraction_range": "out of range: give a number from 0.0 to 1.0",
        "notice.bad_seconds": "give a number of seconds (0 for never)",
        "notice.bad_seconds_range": "give a number of seconds from 0 up (0 for never)",
        "notice.bad_path": "give a file or folder path in quotes, e.g. "
                           '"/var/lib/abraca-companion"',
        "notice.bad_path_nul": "a path cannot contain a NUL character",
        "notice.bad_camera_table": 'expected a [camera] table, e.g. kind = "picamera2"',
        "notice.bad_camera_kind": 'the camera needs a kind, e.g. kind = "picamera2" or kind = '
                                  '"opencv"',
        # The camera sources' own checks (vision.sources), which the command line shares.
        "notice.camera_not_table": "camera configuration {config}: expected a table of settings "
                                   "with a kind",
        "notice.camera_kind_unknown": "camera kind {kind} is unknown: choose one of {choices}",
        "notice.camera_unknown": "camera setting {name} is unknown for kind {kind}; known "
                                 "settings: {known}",
        "notice.camera_folder_path": 'a folder camera needs a path, e.g. path = "frames/"',
        "notice.camera_device": "camera setting device = {value}: give a device number (0, 1, "
                                "...) or a video file path",
        "notice.camera_pair": "camera setting {name} = {value}: give two positive numbers, e.g. "
                              "[640, 480]",
        "notice.camera_zero_or_more": "camera setting {name} = {value}: give a number of 0 or "
                                      "more",
        "notice.camera_size": "camera setting size = {value}: give a width and height in pixels, "
                              "each from 32 to 4096, e.g. size=640x480",
        "notice.camera_number_most": "camera setting {name} = {value}: give a number from 0 to "
                                     "{most}, e.g. {name}={example}",
        "notice.camera_number_above_most": "camera setting {name} = {value}: give a number above "
                                           "0 and up to {most}, e.g. {name}={example}",
        "notice.camera_card_unknown": "camera setting {name} = {value}: give the card to lay in "
                                      "slot {name}, one of {cards}",
        "notice.camera_number": "camera setting {name} = {value}: give a number of 0 or more, "
                                "e.g. {name}={example}",
        "notice.camera_number_above": "camera setting {name} = {value}: give a number above 0, "
                                      "e.g. {name}={example}",
        "notice.camera_whole": "camera setting {name} = {value}: give a whole number of 0 or "
                               "more, e.g. {name}={example}",
        "notice.camera_whole_above": "camera setting {name} = {value}: give a whole number above "
                                     "0, e.g. {name}={example}",
        "notice.camera_video_missing": "the video file {device} does not exist{hint}",
        "notice.camera_video_folder": "the video file {device} is a folder: a folder of pictures "
                                      "is kind = \"folder\" (folder:PATH on the command line)",
        "notice.camera_webcam_hint": " (a webcam is given by its number, e.g. opencv:0)",
        "notice.camera_video_unopenable": "the video cannot be opened: {why}",
        "notice.camera_video_unplayable": "the video file {device} cannot be played (damaged, or "
                                          "a format OpenCV does not know)",
        "notice.camera_lores_needed": "detect_on_lores needs a lores size, e.g. lores = [640, 480]",
        "notice.camera_synthetic_refused": "synthetic camera settings {options}: {why}",
        "notice.camera_refused": "Camera setting problem: {why}. Cards are picked on the "
                                 "screen.",
        "notice.settings_unreadable": "The operator's settings in {path} could not be read "
                                      "({why}); using the configuration's.",
        "notice.nested_too_deeply": "nested too deeply",
        "notice.settings_damaged": "it is damaged on line {line}",
        "notice.settings_not_utf8": "it is not UTF-8 text",
        "notice.settings_too_long": "a value in it is far too long",
        "notice.settings_not_object": "The operator's settings in {path} are not a JSON object; "
                                      "using the configuration's.",
        "notice.settings_ignored": "{path}: {why}; ignored.",
        "notice.unknown_operator_setting": "unknown operator setting {name}",
        "notice.setting_refused": "That setting cannot be used: {why}.",
        "notice.setting_not_kept": "The setting applies now but could not be kept for the next "
                                   "start ({error}).",
        "notice.power_off": "switched off",
        "notice.power_restart": "restarted",
        "notice.power_no_systemd": "This computer cannot be {what} from the table (no systemd "
                                   "here).",
        "notice.power_no_answer": "The table could not be {what}: the system did not answer.",
        "notice.power_error": "The table could not be {what} ({error}).",
        "notice.power_refused": "The table could not be {what} ({reason}). Is the companion "
                                "installed with scripts/install-kiosk.sh?",
        "notice.power_refused_plain": "The table could not be {what}. Is the companion installed "
                                      "with scripts/install-kiosk.sh?",
        "notice.game_goes_on": "{text} The game goes on.",
        "notice.history_opened": "opened",
        "notice.history_saved": "saved",
        "notice.history_read": "read",
        "notice.history_full": "The game history could not be {doing}: the disk is full; free "
                               "some space to keep the history.",
        "notice.history_readonly": "The game history could not be {doing}: {path} is read-only.",
        "notice.history_cannot_open": "The game history could not be {doing}: {path} cannot be "
                                      "opened.",
        "notice.history_damaged": "The game history at {path} is damaged, or is no game history "
                                  "({error}); move it aside to start a new one.",
        "notice.history_io": "The game history could not be {doing} ({error}).",
        "notice.history_no_folder": "The game history cannot be kept at {path}: its folder cannot "
                                    "be made ({error}). The game goes on.",
        "notice.log_problem": "The table log's {problem}.",
        "notice.torn_tail": "last line (line {line}) was cut short, most likely by a power cut, "
                            "and was left out: nothing the screen had shown is lost",
        "notice.log_unreadable": "The game in progress could not be read ({error}); the table "
                                 "starts empty.",
        "notice.log_no_game": "The table log holds no game ({error}); the table starts empty.",
        "notice.log_bad_line_kept": "The table log has a bad line {line} ({error}): the game "
                                    "resumes from just before it; the original is kept as {name}.",
        "notice.log_bad_line": "The table log has a bad line {line} ({error}): the game resumes "
                               "from just before it.",
        "notice.log_not_set_aside": "The damaged table log could not be kept aside ({error}).",
        "notice.damaged_log_in_place": "the damaged log could not be kept aside",
        "notice.game_waits": "The last game could not be saved before the table was cleared: it "
                             "is kept until there is room again, and saved then.",
        "notice.archive_failed": "The last game's log could not be moved to {folder} ({error}).",
        "notice.log_rewritten": "The table log was removed while the table ran: it is written "
                                "again, with the whole game.",
        "notice.cannot_save": "The game cannot be saved ({error}): play goes on, but a power cut "
                              "now would lose the last moves. {mend}",
        "notice.mend_space": "Free some space on the card.",
        "notice.mend_readonly": "The card or the table's folder cannot be written: check the "
                                "card.",
        "notice.mend_check": "Check the card.",
        "notice.saved_again": "The game is saved again.",
        "notice.history_saved_again": "A finished game is in the game history now.",
        "notice.waiting_saved": "A game kept waiting for room is saved.",
        "notice.waiting_saved_no_history": "A game kept waiting for room is saved in {folder}, "
                                           "but the history could not take it ({error}).",
        "notice.history_refused": "The finished game could not go into the history: {error}.",
    },
    "ko": {
        "title": "아브라카 후?",
        "prompt.setup_join": "새 게임: 각자 자리 버튼을 누르세요 ({count}명 참가). "
                             "OK로 시작합니다.",
        "prompt.setup_first": "누가 먼저 할까요? 그 사람의 버튼을 누르거나 OK로 무작위로 "
                              "정하세요.",
        "prompt.turn": "{player}의 차례: 자기 버튼은 추리, 다른 사람의 버튼은 결투입니다.",
        "prompt.answer": "{player}님이 {target}님에게 결투를 신청했습니다. {target}: 자기 버튼은 "
                         "수락, Back은 거절.",
        "prompt.guess": "{player}: 자신의 정체를 선언하세요 (버튼 1-6 = 카드의 힘).",
        "prompt.guess_refused": "{player}님이 거절했습니다: 정체를 선언하고 추리하세요 "
                                "(버튼 1-6 = 카드의 힘).",
        "prompt.lay": "{player}: 카드를 {zone} 칸에 앞면이 보이게 놓으세요.",
        "prompt.lay_duel": "결투! 카드를 앞면이 보이게 놓으세요: A 칸에 {player}, B 칸에 "
                           "{target}.",
        "prompt.pick": "{player}: {zone} 칸의 카드를 고르세요 (버튼 1-6 = 힘).",
        "prompt.lay_reveal": "{player} 탈락: 들고 있던 카드를 {zone} 칸에 놓으세요.",
        "prompt.pick_reveal": "{player} 탈락: 들고 있던 카드를 고르세요 (버튼 1-6 = 힘).",
        "prompt.guess_held": "{player}: 자신의 정체를 선언하세요 (버튼 1-3 = 카드의 힘, "
                             "길게 누르면 4-6).",
        "prompt.guess_refused_held": "{player}님이 거절했습니다: 정체를 선언하고 추리하세요 "
                                     "(버튼 1-3 = 카드의 힘, 길게 누르면 4-6).",
        "prompt.pick_held": "{player}: {zone} 칸의 카드를 고르세요 (버튼 1-3 = 힘, 길게 누르면 "
                            "4-6).",
        "prompt.pick_reveal_held": "{player} 탈락: 들고 있던 카드를 고르세요 (버튼 1-3 = 힘, "
                                   "길게 누르면 4-6).",
        "prompt.confirm_right": "{player}: {guess} 선언, 카드는 {card}: 성공! "
                                "OK로 확인, Back으로 다시 읽기.",
        "prompt.confirm_wrong": "{player}: {guess} 선언, 카드는 {card}: 실패, 피해 1. "
                                "OK로 확인, Back으로 다시 읽기.",
        "prompt.confirm_duel": "{player}: {pcard}, {target}: {tcard}. 이것으로 게임이 끝납니다. "
                               "OK로 확인, Back으로 다시 읽기.",
        "prompt.confirm_reveal": "{player}의 카드는 {card}. 이것으로 게임이 끝납니다. "
                                 "OK로 확인, Back으로 다시 읽기.",
        "prompt.summary": "{round}라운드가 끝났습니다. OK로 다음 라운드.",
        "prompt.over": "{winners} 승리! OK로 새 게임.",
        "prompt.wait": "잠시 기다려 주세요.",
        "msg.step_cancelled": "단계를 취소했습니다.",
        "msg.nothing_to_undo": "되돌릴 것이 없습니다.",
        "msg.undone": "되돌렸습니다.",
        "msg.need_two": "2명 이상 참가해야 합니다.",
        "msg.left": "{player}님이 새 게임에서 빠졌습니다. 다시 참가하려면 자리 버튼을 누르세요.",
        "msg.nobody_joined": "아직 아무도 참가하지 않았습니다. 각자 자리 버튼을 누르세요.",
        "msg.wrong_button": "지금은 그 버튼을 쓸 수 없습니다.",
        "msg.seat_not_joined": "{seat}번 자리는 참가하지 않았습니다.",
        "msg.refused": "허용되지 않음: {text}",
        "msg.turn_help": "{player}: 자기 버튼은 추리, 다른 사람의 버튼은 결투입니다.",
        "msg.no_such_seat": "{seat}번 자리에는 아무도 없습니다.",
        "rule.target_out": "{target}님은 이번 라운드에서 탈락해 결투할 수 없습니다.",
        "msg.answer_help": "{target}님을 기다립니다: 자기 버튼은 수락, Back은 거절.",
        "rule.must_investigate": "{player}님은 결투를 거절했으므로 추리해야 합니다.",
        "msg.guess_help": "{player}: 버튼 1-6으로 정체를 선언하세요.",
        "msg.guess_help_held": "{player}: 버튼 1-3으로 정체를 선언하세요 (길게 누르면 4-6).",
        "msg.camera_unsure": "카메라가 이 카드를 읽지 못했습니다: 화면에서 고르세요.",
        "msg.cards_help": "카드를 칸에 놓거나 OK를 눌러 직접 고르세요.",
        "rule.too_many": "{card}일 수 없습니다: {copies}장뿐인데 이번 라운드에 이미 {seen}장 "
                         "공개되었습니다. 카드를 확인하고 다시 보여 주세요.",
        "rule.one_ghost": "유령은 한 장뿐입니다: 두 카드가 모두 유령일 수는 없습니다. 카드를 "
                          "확인하고 다시 보여 주세요.",
        "rule.no_game": "아직 게임이 시작되지 않았습니다.",
        "rule.game_over": "게임이 끝났습니다: OK를 눌러 새 게임을 시작하세요.",
        "rule.nothing_to_undo": "되돌릴 것이 없습니다: 게임이 막 시작되었습니다.",
        "rule.game_started": "이미 게임이 진행 중입니다.",
        "rule.no_such_player": "이 테이블에 {player}(이)라는 플레이어는 없습니다.",
        "rule.reveal_first": "{players}님이 먼저 가지고 있던 카드를 공개해야 합니다.",
        "rule.not_your_turn": "지금은 {player}님의 차례입니다.",
        "rule.challenge_self": "{player}님은 자신에게 결투를 신청할 수 없습니다: 다른 플레이어를 "
                               "고르세요.",
        "rule.no_reveal_owed": "{player}님은 지금 공개할 카드가 없습니다.",
        "msg.confirm_help": "OK는 확인, Back은 카드를 다시 읽습니다.",
        "msg.ok_to_go_on": "OK를 눌러 계속하세요.",
        "msg.ok_new_game": "OK를 눌러 새 게임을 시작하세요.",
        "msg.panel_fault": "생명력 다이얼이 응답하지 않습니다: {text}",
        "msg.log_failed": "게임 기록을 저장할 수 없어 아무것도 바뀌지 않았습니다: {text}",
        "label.revealed": "이번 라운드 공개된 카드",
        "label.aid": "아직 안 보인 카드",
        "label.deck": "덱: {n}장",
        "label.chance": "{pct}%",
        "label.left": "{n}장 남음",
        "label.chance_note": "%: 안 보인 카드가 이 카드일 확률",
        "label.stones": "마법의 돌",
        "stats.title": "플레이어 기록",
        "stats.player": "플레이어",
        "stats.games": "게임",
        "stats.wins": "승리",
        "stats.total": "끝난 게임 {games}판",
        "stats.none": "아직 끝난 게임이 없습니다.",
        "stats.more": "외 {n}명",
        "label.to_win": "승리까지 {n}",
        "label.hand_out": "지급: 3짜리 {threes}개 + 1짜리 {ones}개",
        "label.out": "탈락",
        "label.turn": "차례",
        "label.challenged": "도전받음",
        "label.health": "생명력",
        "label.round": "{round}라운드",
        "label.events": "최근 기록",
        "label.undo": "되돌리기",
        "label.ok": "OK",
        "label.back": "Back",
        "label.lang": "English",
        "label.pick": "카드 고르기",
        "label.announce": "어떤 정체를 선언합니까?",
        "label.joined": "참가",
        "label.winners": "승자",
        "label.summary": "라운드 요약",
        "label.warning": "경고",
        "label.setup": "준비",
        "ev.game": "새 게임: {players}",
        "ev.investigate_right": "{player} 추리: {card}, 성공",
        "ev.investigate_wrong": "{player} 추리: {card} ({guess} 선언), 실패",
        "ev.duel": "{player} {pcard} 대 {target} {tcard}",
        "ev.refused": "{target}님이 {player}님의 결투를 거절",
        "ev.reveal": "{player} 공개: {card}",
        "fx.damage": "{player} 생명력 -{amount}",
        "fx.heal": "{player} 생명력 +{amount}",
        "fx.stones": "{player} 마법의 돌 +{amount}",
        "fx.eliminated": "{player} 탈락!",
        "fx.round_end": "{round}라운드 종료",
        "fx.game_end": "게임 종료!",
        "sum.stones": "{player}: 마법의 돌 +{amount}",
        "sum.nothing": "이번 라운드에는 마법의 돌이 없습니다.",
        "warn.no_camera": "카메라 없음: 카드는 화면에서 고릅니다.",
        "warn.cards_missing": "{cards} 카드 사진이 아직 없습니다: 등록하고 테이블을 다시 켤 "
                              "때까지 카드는 화면에서 고릅니다.",
        "warn.card_unreadable": "{card} 카드 사진을 읽을 수 없습니다 ({file}): 다시 등록하고 "
                                "테이블을 다시 켤 때까지 카드는 화면에서 고릅니다.",
        "warn.cards_same": "{cards} 카드 사진이 같은 사진입니다 ({files}): 하나는 복사본입니다. "
                           "올바른 카드를 등록하고 테이블을 다시 켤 때까지 카드는 화면에서 "
                           "고릅니다.",
        "warn.no_gpio": "GPIO 없음: 다이얼과 버튼은 화면에 표시됩니다.",
        "warn.panel_failed": "다이얼과 버튼을 사용할 수 없습니다 ({text}): 화면에 표시됩니다.",
        "warn.resumed": "끝나지 않은 게임을 이어서 합니다.",
        "warn.joined": "{text}",
        "msg.notice": "{text}",
        "msg.hand_over": "자동 진행을 멈췄습니다: 이제 직접 하세요. 키 1-6, Enter, Esc, U.",
        "warn.camera_waiting": "카메라가 응답하지 않습니다: 카드는 화면에서 고릅니다.",
        "warn.slots_poor": "카메라가 {slots} 칸의 카드를 읽지 못할 수 있습니다: 직원에게 카메라 "
                           "설치를 확인해 달라고 하세요.",
        "warn.out_of_focus": "카메라 화면의 초점이 맞지 않아 카드를 보지 못할 수 있습니다: "
                             "직원에게 카메라 초점을 맞춰 달라고 하세요.",
        "warn.no_mat": "카메라가 매트를 보지 못합니다: 카드를 놓을 차례에는 OK를 눌러 직접 "
                       "고르세요. 직원에게 카메라를 확인해 달라고 하세요.",
        "warn.misfit": "매트가 너무 작게 인쇄되어 카메라가 카드를 읽지 못합니다: 카드를 놓을 "
                       "차례에는 OK를 눌러 직접 고르세요. 직원에게 매트를 다시 인쇄해 달라고 "
                       "하세요.",
        "warn.misfit_small": "카드가 이 매트에 맞는 크기보다 작아 보여 카메라가 읽지 못합니다: "
                             "카드를 놓을 차례에는 OK를 눌러 직접 고르세요. 직원에게 매트 크기를 "
                             "확인해 달라고 하세요.",
        "menu.title": "운영자 메뉴",
        "menu.hint": "자리 버튼 1-6이나 터치, 또는 Undo로 옮겨 OK로 고릅니다. Back으로 닫습니다.",
        "menu.language": "언어",
        "menu.lang_name": "한국어",
        "menu.seats": "사용하는 자리",
        "menu.seats_value": "{n}개 (다음 게임부터)",
        "menu.brightness": "LED 밝기",
        "menu.brightness_value": "{pct}%",
        "menu.brightness_ignored": "{pct}% (저장됨; 이 다이얼은 따르지 않음)",
        "menu.camera": "카메라 확인",
        "menu.shutdown": "안전하게 끄기",
        "menu.close": "메뉴 닫기",
        "menu.confirm_shutdown": "테이블을 끌까요? OK는 끄기, Back은 취소입니다.",
        "menu.shutdown_demo": "데모: 지금 테이블이 꺼졌을 것입니다. 실제로 끄지는 않았습니다.",
        "menu.shutting_down": "끄는 중입니다. Pi의 초록색 불이 멈춘 뒤에 전원을 뽑으세요.",
        "menu.cancelled": "끄기를 취소했습니다.",
        "menu.camera_checked": "방금 카메라를 확인했습니다.",
        "menu.help": "자리 버튼 1-6으로 고르거나 Undo로 옮기고 OK로 고릅니다. Back으로 닫습니다.",
        "cam.none": "카메라: 설정되지 않음. 카드는 화면에서 고릅니다.",
        "cam.lost": "카메라: 응답 없음. 카드는 화면에서 고릅니다.",
        "cam.no_mat": "카메라: 작동하지만 매트가 보이지 않습니다. 매트 전체가 보이는지 "
                      "확인하세요.",
        "cam.mat": "카메라: 작동, 매트 찾음. 보이는 카드: {cards}.",
        "cam.mat_empty": "카메라: 작동, 매트 찾음. 칸에 카드 없음.",
        "cam.slots_poor": "카메라: 작동, 매트 찾음. 하지만 {slots} 칸을 비스듬히 또는 너무 멀리서 "
                          "보고 있어 그 칸의 카드를 읽지 못할 수 있습니다. 매트 바로 위에, 더 "
                          "가깝게 달아 주세요.",
        "cam.misfit": "카메라: 매트 찾음. 하지만 카드가 매트에 맞는 크기의 {times}배로 보입니다: "
                      "매트를 A3 용지에 100 %로 인쇄하세요.",
        "cam.misfit_small": "카메라: 매트 찾음. 하지만 카드가 맞는 크기의 {times}배로 보입니다: "
                            "더 작은 카드이거나 매트가 A3보다 크게 인쇄되었습니다.",
        "cam.out_of_focus": "카메라: 매트 찾음. 하지만 화면의 초점이 맞지 않아 카드를 보지 못할 수 "
                            "있습니다. 초점을 맞춘 뒤 companion camera-check로 확인하세요.",
        "cam.on": "카메라: 작동. 보이는 카드: {cards}.",
        "cam.on_empty": "카메라: 작동. 칸에 카드 없음.",
        "msg.seat_not_in_use": "{seat}번 자리는 이 테이블에서 쓰지 않습니다 (1-{seats}번 자리).",
        "attract.press": "아무 버튼이나 눌러 시작하세요",
        "notice.button_stuck": "버튼이 계속 눌려 있거나 걸려 있습니다: {button}. 올라올 때까지 "
                               "더는 눌리지 않습니다. 아무도 누르고 있지 않다면 직원에게 확인해 "
                               "달라고 하세요.",
        "notice.config_missing": "설정 파일이 없습니다 ({where}): 기본 설정으로 시작합니다.",
        "notice.config_folder": "설정 파일 자리({where})에 파일이 아니라 폴더가 있습니다: 기본 "
                                "설정으로 시작합니다.",
        "notice.config_unreadable": "설정 파일({where})을 읽을 수 없습니다 ({error}): 기본 "
                                    "설정으로 시작합니다.",
        "notice.config_not_text": "설정 파일({where})은 읽을 수 있는 텍스트가 아닙니다.",
        "notice.config_not_utf8": "설정 파일({where})의 {line}번째 줄에 오류가 있습니다: UTF-8 "
                                  "텍스트가 아닙니다. 그 줄은 빼고 읽으며, 그 설정은 기본값을 "
                                  "씁니다. 파일을 UTF-8로 저장하세요.",
        "notice.config_mistake": "설정 파일({where})에 오류가 있습니다: {why}.",
        "notice.config_defaults": "{text} 기본 설정으로 시작합니다.",
        "notice.config_more": "{where}: 문제가 {count}개 더 있지만 여기에는 적지 않습니다.",
        "notice.config_line": "설정 파일({where})의 {line}번째 줄({shown})에 오류가 있습니다: "
                              "{said}.",
        "notice.said_section_twice": "{why}. 그 섹션은 앞에서 이미 시작되었으므로 여기 있는 "
                                     "설정은 빼고 읽습니다. 처음 섹션에 넣으세요",
        "notice.said_section_out": "{why}. 그 섹션은 빼고 읽으며, 그 섹션의 설정은 기본값을 "
                                   "씁니다",
        "notice.said_setting_out": "{why}. 그 설정은 빼고 읽으며, 기본값을 씁니다",
        "notice.said_line_out": "{why}. 그 줄은 빼고 읽습니다",
        "notice.said_first_counts": "{why}. 그 줄은 빼고 읽으며, 처음 것이 적용됩니다",
        "notice.said_default": "{why}. 그 줄은 빼고 읽으며, 그 설정은 기본값을 씁니다",
        "notice.toml_nested": "값이 너무 깊이 중첩되어 읽을 수 없습니다",
        "notice.config_bad_value": "{where}: {name} = {value}: {why}. 기본값을 씁니다.",
        "notice.storage_is_folder": "파일이 아니라 폴더입니다",
        "notice.storage_is_file": "폴더가 아니라 파일입니다",
        "notice.storage_is_config": "이 설정 파일 자신입니다",
        "notice.storage_is_database": "게임 기록 데이터베이스 파일입니다",
        "notice.config_bad_camera": "{where}: camera: {why}. 기본 카메라({kind})를 씁니다.",
        "notice.config_not_section": "{where}: {name} = {value}: [{name}] 섹션이어야 합니다. 그 "
                                     "섹션의 기본값을 씁니다.",
        "notice.config_unknown": "{where}: 알 수 없는 설정 {name}{hint}. 무시합니다.",
        "notice.did_you_mean": " ({word}의 오타인가요?)",
        "notice.belongs_in": " ([{section}] 섹션에 넣어야 합니다)",
        "notice.unknown_setting": "알 수 없는 설정 {name}",
        "notice.setting_value": "{name} = {value}: {why}",
        "notice.bad_language": "{choices} 중 하나를 고르세요",
        "notice.bad_seats": "{low}부터 {high}까지의 정수를 쓰세요",
        "notice.bad_seats_range": "범위를 벗어났습니다: {low}부터 {high}까지의 정수를 쓰세요",
        "notice.bad_names": '이름을 자리 순서대로 목록으로 쓰세요. 예: ["Ann", "Ben", "Cat"]',
        "notice.bad_names_count": "이름은 자리마다 하나씩, 1개부터 {n}개까지 쓰세요",
        "notice.bad_name_empty": "빈 이름이 있습니다",
        "notice.bad_name_control": "이름 {name}에는 제어 문자가 들어 있어 쓸 수 없습니다",
        "notice.bad_name_shared": "두 자리에 같은 이름({name})을 쓸 수 없습니다",
        "notice.bad_fraction": "0.0부터 1.0까지의 수를 쓰세요",
        "notice.bad_fraction_range": "범위를 벗어났습니다: 0.0부터 1.0까지의 수를 쓰세요",
        "notice.bad_seconds": "초 단위의 수를 쓰세요 (0이면 끔)",
        "notice.bad_seconds_range": "0 이상의 초 단위 수를 쓰세요 (0이면 끔)",
        "notice.bad_path": "파일이나 폴더의 경로를 따옴표 안에 쓰세요. 예: "
                           '"/var/lib/abraca-companion"',
        "notice.bad_path_nul": "경로에 NUL 문자가 들어갈 수 없습니다",
        "notice.bad_camera_table": '[camera] 섹션이어야 합니다. 예: kind = "picamera2"',
        "notice.bad_camera_kind": '카메라에 kind가 있어야 합니다. 예: kind = "picamera2" 또는 '
                                  'kind = "opencv"',
        "notice.camera_not_table": "카메라 설정 {config}: kind가 있는 설정 섹션이어야 합니다",
        "notice.camera_kind_unknown": "알 수 없는 카메라 kind {kind}: {choices} 중 하나를 "
                                      "고르세요",
        "notice.camera_unknown": "kind {kind}의 카메라에는 {name} 설정이 없습니다. 쓸 수 있는 "
                                 "설정: {known}",
        "notice.camera_folder_path": '폴더 카메라에는 path가 있어야 합니다. 예: path = "frames/"',
        "notice.camera_device": "카메라 설정 device = {value}: 장치 번호(0, 1, ...)나 동영상 "
                                "파일의 경로를 쓰세요",
        "notice.camera_pair": "카메라 설정 {name} = {value}: 양수 두 개를 쓰세요. 예: [640, 480]",
        "notice.camera_zero_or_more": "카메라 설정 {name} = {value}: 0 이상의 수를 쓰세요",
        "notice.camera_size": "카메라 설정 size = {value}: 너비와 높이를 각각 32에서 4096 사이의 "
                              "픽셀 수로 쓰세요. 예: size=640x480",
        "notice.camera_number_most": "카메라 설정 {name} = {value}: 0에서 {most} 사이의 수를 "
                                     "쓰세요. 예: {name}={example}",
        "notice.camera_number_above_most": "카메라 설정 {name} = {value}: 0보다 크고 {most} "
                                           "이하인 수를 쓰세요. 예: {name}={example}",
        "notice.camera_card_unknown": "카메라 설정 {name} = {value}: 슬롯 {name}에 놓을 카드를 "
                                      "쓰세요. 다음 중 하나: {cards}",
        "notice.camera_number": "카메라 설정 {name} = {value}: 0 이상의 수를 쓰세요. 예: "
                                "{name}={example}",
        "notice.camera_number_above": "카메라 설정 {name} = {value}: 0보다 큰 수를 쓰세요. 예: "
                                      "{name}={example}",
        "notice.camera_whole": "카메라 설정 {name} = {value}: 0 이상의 정수를 쓰세요. 예: "
                               "{name}={example}",
        "notice.camera_whole_above": "카메라 설정 {name} = {value}: 0보다 큰 정수를 쓰세요. 예: "
                                     "{name}={example}",
        "notice.camera_video_missing": "동영상 파일({device})이 없습니다{hint}",
        "notice.camera_video_folder": "동영상 파일 자리({device})에 폴더가 있습니다: 사진 폴더는 "
                                      "kind = \"folder\"로 씁니다 (명령줄에서는 folder:경로)",
        "notice.camera_webcam_hint": " (웹캠은 번호로 씁니다. 예: opencv:0)",
        "notice.camera_video_unopenable": "동영상을 열 수 없습니다: {why}",
        "notice.camera_video_unplayable": "동영상 파일({device})을 재생할 수 없습니다 "
                                          "(손상되었거나 OpenCV가 모르는 형식입니다)",
        "notice.camera_lores_needed": "detect_on_lores에는 lores 크기가 있어야 합니다. 예: "
                                      "lores = [640, 480]",
        "notice.camera_synthetic_refused": "합성 카메라 설정 {options}: {why}",
        "notice.camera_refused": "카메라 설정 문제: {why}. 카드는 화면에서 고릅니다.",
        "notice.settings_unreadable": "운영자 설정({path})을 읽을 수 없습니다 ({why}): 설정 "
                                      "파일의 설정을 씁니다.",
        "notice.nested_too_deeply": "너무 깊이 중첩됨",
        "notice.settings_damaged": "{line}번째 줄이 손상됨",
        "notice.settings_not_utf8": "UTF-8 텍스트가 아님",
        "notice.settings_too_long": "너무 긴 값이 있음",
        "notice.settings_not_object": "운영자 설정({path})이 JSON 객체가 아닙니다: 설정 파일의 "
                                      "설정을 씁니다.",
        "notice.settings_ignored": "{path}: {why}. 무시합니다.",
        "notice.unknown_operator_setting": "알 수 없는 운영자 설정 {name}",
        "notice.setting_refused": "그 설정은 쓸 수 없습니다: {why}.",
        "notice.setting_not_kept": "설정은 지금 적용되지만, 다음에 켤 때까지 남도록 저장하지는 "
                                   "못했습니다 ({error}).",
        "notice.power_off": "끌",
        "notice.power_restart": "다시 시작할",
        "notice.power_no_systemd": "이 컴퓨터는 테이블에서 {what} 수 없습니다 (systemd가 "
                                   "없습니다).",
        "notice.power_no_answer": "테이블을 {what} 수 없었습니다: 시스템이 응답하지 않았습니다.",
        "notice.power_error": "테이블을 {what} 수 없었습니다 ({error}).",
        "notice.power_refused": "테이블을 {what} 수 없었습니다 ({reason}). companion을 "
                                "scripts/install-kiosk.sh로 설치했는지 확인하세요.",
        "notice.power_refused_plain": "테이블을 {what} 수 없었습니다. companion을 "
                                      "scripts/install-kiosk.sh로 설치했는지 확인하세요.",
        "notice.game_goes_on": "{text} 게임은 계속됩니다.",
        "notice.history_opened": "열",
        "notice.history_saved": "저장할",
        "notice.history_read": "읽을",
        "notice.history_full": "지난 게임 기록을 {doing} 수 없습니다: 디스크가 꽉 찼습니다. "
                               "기록을 계속 남기려면 공간을 비우세요.",
        "notice.history_readonly": "지난 게임 기록을 {doing} 수 없습니다: 읽기 전용입니다 "
                                   "({path}).",
        "notice.history_cannot_open": "지난 게임 기록을 {doing} 수 없습니다: 파일을 열 수 "
                                      "없습니다 ({path}).",
        "notice.history_damaged": "지난 게임 기록 파일({path})이 손상되었거나 게임 기록 파일이 "
                                  "아닙니다 ({error}): 새 기록을 시작하려면 그 파일을 다른 곳으로 "
                                  "옮기세요.",
        "notice.history_io": "지난 게임 기록을 {doing} 수 없습니다 ({error}).",
        "notice.history_no_folder": "지난 게임 기록을 {path}에 남길 수 없습니다: 폴더를 만들 수 "
                                    "없습니다 ({error}). 게임은 계속됩니다.",
        "notice.log_problem": "게임 기록 파일의 {problem}.",
        "notice.torn_tail": "마지막 줄({line}번째 줄)이 아마 정전 때문에 중간에 끊겨서 빼고 "
                            "읽었습니다: 화면에 나왔던 것은 하나도 잃지 않았습니다",
        "notice.log_unreadable": "진행 중이던 게임을 읽을 수 없습니다 ({error}): 빈 테이블로 "
                                 "시작합니다.",
        "notice.log_no_game": "게임 기록 파일에 게임이 없습니다 ({error}): 빈 테이블로 "
                              "시작합니다.",
        "notice.log_bad_line_kept": "게임 기록 파일의 {line}번째 줄이 잘못되었습니다 ({error}): "
                                    "그 줄 바로 앞부터 게임을 이어 갑니다. 원래 파일은 {name} "
                                    "이름으로 남겨 두었습니다.",
        "notice.log_bad_line": "게임 기록 파일의 {line}번째 줄이 잘못되었습니다 ({error}): 그 줄 "
                               "바로 앞부터 게임을 이어 갑니다.",
        "notice.log_not_set_aside": "손상된 게임 기록 파일을 따로 옮겨 두지 못했습니다 ({error}).",
        "notice.damaged_log_in_place": "손상된 기록 파일을 따로 옮겨 두지 못했습니다",
        "notice.game_waits": "테이블을 비우기 전에 지난 게임을 저장하지 못했습니다: 공간이 생길 "
                             "때까지 보관했다가 그때 저장합니다.",
        "notice.archive_failed": "지난 게임의 기록 파일을 {folder} 폴더로 옮기지 못했습니다 "
                                 "({error}).",
        "notice.log_rewritten": "테이블이 켜져 있는 동안 게임 기록 파일이 지워졌습니다: 게임 "
                                "전체를 다시 기록했습니다.",
        "notice.cannot_save": "게임을 저장할 수 없습니다 ({error}): 게임은 계속할 수 있지만, 지금 "
                              "전원이 꺼지면 마지막 진행이 사라집니다. {mend}",
        "notice.mend_space": "메모리 카드의 공간을 비우세요.",
        "notice.mend_readonly": "메모리 카드나 테이블 폴더에 쓸 수 없습니다: 메모리 카드를 "
                                "확인하세요.",
        "notice.mend_check": "메모리 카드를 확인하세요.",
        "notice.saved_again": "게임을 다시 저장했습니다.",
        "notice.history_saved_again": "끝난 게임을 이제 게임 기록에 저장했습니다.",
        "notice.waiting_saved": "공간을 기다리던 게임을 저장했습니다.",
        "notice.waiting_saved_no_history": "공간을 기다리던 게임을 {folder} 폴더에 저장했지만, "
                                           "지난 게임 기록에는 넣지 못했습니다 ({error}).",
        "notice.history_refused": "끝난 게임을 지난 게임 기록에 넣지 못했습니다: {error}.",
    },
}

_CARD_ARGS = ("card", "guess", "pcard", "tcard")
_NAME_ARGS = ("player", "target")


def characters(lang: str = "en") -> str:
    """Every character that language's catalogue can show (with card and colour names and
    the digits): the screen renders them once at start-up so the fonts' glyphs are ready."""
    chars = set("0123456789%+-x/.,:()")
    for table in (CATALOGUE["en"], CARDS["en"], CATALOGUE.get(lang, {}), CARDS.get(lang, {}),
                  COLOURS.get(lang, {}), BUTTONS["en"], BUTTONS.get(lang, {})):
        for text in table.values():
            chars.update(text)
    for name in COLOURS["ko"]:
        chars.update(name)
    chars.discard("\n")
    return "".join(sorted(chars))


def card_name(lang: str, identity: str) -> str:
    return CARDS.get(lang, CARDS["en"]).get(identity, identity)


def button_name(lang: str, name: str) -> str:
    """A button ("ok", "seat3") as a sentence names it: "the OK button", "seat 3's button"."""
    names = BUTTONS.get(lang, BUTTONS["en"])
    if name.startswith("seat") and name[4:].isdigit():
        return names["seat"].format(n=int(name[4:]))
    return names.get(name, name)


_SEAT_NAME = re.compile(r"Seat ([1-6])")  # a seat whose colour a player took for a name


def player_name(lang: str, name: str) -> str:
    """A player's name as shown: colour names and "Seat N" are translated, other names
    kept."""
    if lang == "ko" and (seat := _SEAT_NAME.fullmatch(name)):
        return f"{seat.group(1)}번 자리"
    return COLOURS.get(lang, {}).get(name, name)


def refusal(err: Exception) -> tuple[str, dict]:
    """The message key and arguments for an engine's refusal: its own words in every
    language when the catalogue knows its code, else its English sentence."""
    code = getattr(err, "code", None)
    if code and f"rule.{code}" in CATALOGUE["en"]:
        return f"rule.{code}", dict(getattr(err, "params", {}))
    return "msg.refused", {"text": str(err)}


class Notice(str):
    """A sentence from outside the flow (the configuration, the camera's settings, the kiosk)
    for the screen. As a string it is the English sentence, for the journal and the command
    line; ``key`` and ``args`` say it in any language (``tr(lang, notice.key, **notice.args)``).
    An argument may be a Notice itself: a reason inside a sentence."""

    key: str
    args: dict

    def __new__(cls, key: str, /, **args) -> Notice:
        self = super().__new__(cls, tr("en", key, **args))
        self.key, self.args = key, args
        return self


def notice_message(text: str) -> tuple[str, dict]:
    """The screen's message for a notice: its own key for a :class:`Notice`, any other text
    as it is (``msg.notice``)."""
    if isinstance(text, Notice):
        return text.key, dict(text.args)
    return "msg.notice", {"text": text}


def is_notice(key: str) -> bool:
    """The message is a notice from outside the flow (see Controller.notice)."""
    return key == "msg.notice" or key.startswith("notice.")


def notice_of(exc: BaseException) -> str:
    """What an exception says: the :class:`Notice` it was raised with, else its text."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, Notice) else str(exc)


def tr(lang: str, key: str, **args) -> str:
    table = CATALOGUE.get(lang, CATALOGUE["en"])
    text = table.get(key) or CATALOGUE["en"].get(key) or key
    shown = {k: tr(lang, v.key, **v.args) if isinstance(v, Notice) else v
             for k, v in args.items()}
    for k in _CARD_ARGS:
        if isinstance(shown.get(k), str):
            shown[k] = card_name(lang, shown[k])
    for k in _NAME_ARGS:
        if isinstance(shown.get(k), str):
            shown[k] = player_name(lang, shown[k])
    if isinstance(shown.get("button"), str):
        shown["button"] = button_name(lang, shown["button"])
    if isinstance(shown.get("cards"), (list, tuple)):
        shown["cards"] = ", ".join(card_name(lang, c) for c in shown["cards"])
    for k in ("winners", "players"):
        if isinstance(shown.get(k), (list, tuple)):
            names = [player_name(lang, n) for n in shown[k]]
            if k == "winners":
                shown["s"] = "" if len(names) > 1 else "s"
            shown[k] = ", ".join(names)
    amount = shown.get("amount")
    if isinstance(amount, numbers.Real) and not isinstance(amount, bool):
        shown["s"] = "" if abs(amount) == 1 else "s"  # one stone, two stones
    shown.setdefault("s", "")
    try:
        return text.format(**shown)
    except (KeyError, IndexError, ValueError):
        return text


def event_line(lang: str, event: dict) -> str:
    """One event of the table log as a short line for the screen's history."""
    kind = event.get("event")
    if kind == "game":
        return tr(lang, "ev.game", players=event.get("players", []))
    if kind == "investigate":
        right = event.get("success")
        if right is None:
            right = event.get("guess") == event.get("card")
        key = "ev.investigate_right" if right else "ev.investigate_wrong"
        return tr(lang, key, player=event["player"], card=event["card"],
                  guess=event.get("guess", "?"))
    if kind == "duel":
        if not event.get("accepted"):
            return tr(lang, "ev.refused", player=event["player"], target=event["target"])
        cards = event.get("cards", {})
        return tr(lang, "ev.duel", player=event["player"], target=event["target"],
                  pcard=cards.get(event["player"]), tcard=cards.get(event["target"]))
    if kind == "reveal":
        return tr(lang, "ev.reveal", player=event["player"], card=event["card"])
    return str(kind)


def effect_key(note: dict) -> tuple[str, dict]:
    """An effect's note as its catalogue key and the arguments for it."""
    return "fx." + note.get("kind", ""), {k: v for k, v in note.items() if k != "kind"}


def effect_line(lang: str, note: dict) -> str:
    key, args = effect_key(note)
    return tr(lang, key, **args)


def stone_tokens(n: int) -> tuple[int, int]:
    """How to hand out n stones with the fewest tokens: (threes, ones)."""
    return n // 3, n % 3
