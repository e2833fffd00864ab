//! The file read: every table, every range, every error with its key and
//! line, and the shipped examples.

use super::*;
use crate::announce::phrases::{Style, Styles};
use crate::announce::vocabulary::FileNaming;
use crate::core::clock::IncrementTiming;
use crate::core::{FlagRule, Players, Settings, TouchPolicy};
use crate::record::journal::ResumeClocks;
use crate::runtime::open::usable;
use crate::runtime::parts::{delivery, phrasebook, settings, voice_language};
use crate::sensors::SourceKind;
use crate::speech::Delivery;
use shakmaty::Role;

#[test]
fn shipped_example_config_is_valid_and_matches_the_defaults() {
    let text = include_str!("../../config/pegboard.toml");
    let c = Config::parse(text, "pegboard.toml").expect("valid");
    assert_eq!(settings(&c), Settings::default());
    assert_eq!(c.speech, SpeechConfig::default());
    assert_eq!(c.earcons, EarconSwitches::default());
    assert_eq!(c.announce.styles(), Styles::default());
    assert_eq!(c.announce.files, FileNaming::default());
    assert_eq!(delivery(&c), Delivery::default());
    assert_eq!(c.sensors, SensorsConfig::default());
    assert_eq!(c.board, BoardConfig::default());
    assert_eq!(c.buttons.timing(), crate::keys::ButtonTiming::default());
    assert_eq!(
        c.buttons,
        ButtonsConfig::default(),
        "the default has no keys"
    );
    assert_eq!(c.display, DisplayConfig::default());
    assert_eq!(c.journal, JournalConfig::default());
    assert_eq!(c.game, GameConfig::default());
    assert_eq!(c.mirror, MirrorConfig::default());
    assert_eq!(c.braille, crate::braille::BrailleConfig::default());
}

#[test]
fn the_braille_table_reads_and_names_a_wrong_grade() {
    let c = Config::parse(
        "[journal]\nbrf = true\n[braille]\ngrade = 1\ntable = \"en-us-g2.ctb\"\n",
        "p.toml",
    )
    .expect("valid");
    assert!(c.journal.brf);
    assert_eq!(c.braille.grade, 1);
    assert_eq!(c.braille.table.as_deref(), Some("en-us-g2.ctb"));
    let e = Config::parse("[braille]\n\ngrade = 3\n", "p.toml").expect_err("bad");
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.to_string().contains("[braille] grade = 3"), "{e}");
}

#[test]
fn the_braille_display_reads_and_names_a_wrong_key_at_its_line() {
    let c = Config::parse(
        "[braille]\ndisplay = true\nhost = \"127.0.0.1:3\"\nauth = \"none\"\nspeech = false\n\
         [[braille.key]]\nkey = \"fwinrt\"\npress = \"pan_right\"\n\
         [[braille.key]]\nkey = \"t\"\npress = \"times\"\n",
        "p.toml",
    )
    .expect("valid");
    assert!(c.braille.display && !c.braille.speech);
    assert_eq!(c.braille.key.len(), 2);
    // A key brltty has no name for, at its line.
    let e = Config::parse("[braille]\n[[braille.key]]\nkey = \"warp\"\n", "p.toml")
        .expect_err("no such key");
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.to_string().contains("\"warp\""), "{e}");
    // An action neither the keypad nor the display has.
    let e = Config::parse(
        "[braille]\n[[braille.key]]\nkey = \"t\"\npress = \"fly\"\n",
        "p.toml",
    )
    .expect_err("no such action");
    assert_eq!(e.line, Some(4), "{e}");
    assert!(e.to_string().contains("pan_left"), "{e}");
    // Braille alone without the display leaves the player with nothing.
    let e = Config::parse("[braille]\n\nspeech = false\n", "p.toml").expect_err("nothing");
    assert_eq!(e.line, Some(3), "{e}");
    // A menu key without the key that opens the menu.
    let e = Config::parse(
        "[braille]\ndisplay = true\n[[braille.key]]\nkey = \"space\"\nmenu = \"next\"\n",
        "p.toml",
    )
    .expect_err("no menu key");
    assert!(e.to_string().contains("[[braille.key]]"), "{e}");
}

#[test]
fn the_journal_and_game_tables_read_and_name_a_wrong_key() {
    let c = Config::parse(
        "[journal]\ndir = \"/srv/games\"\nresume = \"running\"\n[game]\nwhite = \"Anna\"\n",
        "p.toml",
    )
    .expect("valid");
    assert_eq!(c.journal.dir, Some(std::path::PathBuf::from("/srv/games")));
    assert_eq!(c.journal.resume, ResumeClocks::Running);
    assert_eq!(c.game.tags().get("White").map(String::as_str), Some("Anna"));
    let e = Config::parse("[journal]\nresume = \"later\"\n", "p.toml").expect_err("bad");
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.to_string().contains("resume"), "{e}");
    let e = Config::parse("[game]\nplayer = \"x\"\n", "p.toml").expect_err("bad");
    assert_eq!(e.line, Some(2), "{e}");
}

#[test]
fn the_hall_example_is_valid() {
    let c = Config::parse(include_str!("../../config/hall.toml"), "hall.toml")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.hall.boards.len(), 2);
    assert_eq!(c.hall.round, "3");
}

#[test]
fn every_setup_example_is_valid() {
    for (name, text, source) in [
        (
            "gpio-matrix.toml",
            include_str!("../../config/gpio-matrix.toml"),
            SourceKind::Matrix,
        ),
        (
            "expanders.toml",
            include_str!("../../config/expanders.toml"),
            SourceKind::Mcp23017,
        ),
        (
            "serial-laptop.toml",
            include_str!("../../config/serial-laptop.toml"),
            SourceKind::Serial,
        ),
    ] {
        let c = Config::parse(text, name).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.sensors.source, source, "{name}");
        assert!(!c.buttons.key.is_empty(), "{name} has keys");
    }
}

fn error(text: &str) -> String {
    match Config::parse(text, "c.toml") {
        Err(e) => e.to_string(),
        Ok(_) => panic!("{text:?} was accepted"),
    }
}

#[test]
fn unknown_key_names_key_and_line() {
    let err = error("[tracker]\nsettle_ms = 500\ntouch_polcy = \"warn\"\n");
    assert!(
        err.starts_with("c.toml:3: [tracker] touch_polcy: unknown field `touch_polcy`"),
        "{err}"
    );
}

#[test]
fn bad_value_names_key_and_line() {
    assert_eq!(
        error("[tracker]\n\ntouch_policy = \"sometimes\"\n"),
        "c.toml:3: [tracker] touch_policy: unknown variant `sometimes`, expected one of \
         `off`, `warn`, `enforce`"
    );
}

#[test]
fn every_number_out_of_its_range_is_refused_with_key_line_and_range() {
    for (text, expected) in [
        (
            "[debounce]\nwindow_ms = 0\n",
            "c.toml:2: [debounce] window_ms: must be from 1 to 1000, not 0",
        ),
        (
            "[debounce]\nwindow_ms = 1000000000000\n",
            "c.toml:2: [debounce] window_ms: must be from 1 to 1000, not 1000000000000",
        ),
        (
            "[debounce]\nwindow_ms = 9223372036854775807\n",
            "c.toml:2: [debounce] window_ms: must be from 1 to 1000, not 9223372036854775807",
        ),
        (
            "[tracker]\nsettle_ms = 9223372036854775807\n",
            "c.toml:2: [tracker] settle_ms: must be from 100 to 60000, not 9223372036854775807",
        ),
        (
            "[tracker]\ntogether_ms = 9223372036854775807\n",
            "c.toml:2: [tracker] together_ms: must be from 0 to 5000, not 9223372036854775807",
        ),
        (
            "[tracker]\ncastling_wait_ms = 9223372036854775807\n",
            "c.toml:2: [tracker] castling_wait_ms: must be from 0 to 10000, not 9223372036854775807",
        ),
        (
            "[speech.speech_dispatcher]\nrate = 1000\n",
            "c.toml:2: [speech.speech_dispatcher] rate: must be from -100 to 100, not 1000",
        ),
        (
            "[speech.clips]\nvolume = -3.5\n",
            "c.toml:2: [speech.clips] volume: must be from 0.0 to 1.0, not -3.5",
        ),
        (
            "[speech.clips]\nvolume = nan\n",
            "c.toml:2: [speech.clips] volume: must be from 0.0 to 1.0, not NaN",
        ),
        (
            "[clock]\nwarning_volume = 2.0\n",
            "c.toml:2: [clock] warning_volume: must be from 0.0 to 1.0, not 2",
        ),
        (
            "[clock]\nwarnings = [600, 0]\n",
            "c.toml:2: [clock] warnings: each value must be from 1 to 86400, not 0",
        ),
        (
            "[sensors]\nscan_hz = 0\n",
            "c.toml:2: [sensors] scan_hz: must be from 1 to 1000, not 0",
        ),
        (
            "[sensors.serial]\nbaud = 0\n",
            "c.toml:2: [sensors.serial] baud: must be from 1200 to 4000000, not 0",
        ),
        (
            "[sensors.serial]\nstale_ms = 0\n",
            "c.toml:2: [sensors.serial] stale_ms: must be from 50 to 60000, not 0",
        ),
        (
            "[buttons]\nlong_press_ms = 0\n",
            "c.toml:2: [buttons] long_press_ms: must be from 100 to 10000, not 0",
        ),
        (
            "[sensors.matrix]\ndrive = [5, 6, 13, 19, 26, 12, 16, 40]\n",
            "c.toml:2: [sensors.matrix] drive: each value must be from 0 to 27, not 40",
        ),
        (
            "[sensors.mcp23017]\naddresses = [0x20, 0x21, 0x22, 0x50]\n",
            "c.toml:2: [sensors.mcp23017] addresses: each value must be from 0x20 to 0x27, not 0x50",
        ),
    ] {
        assert_eq!(error(text), expected, "{text:?}");
    }
}

#[test]
fn clock_modules_on_pins_the_matrix_uses_name_the_key_and_line() {
    assert_eq!(
        error("[display]\nfaces = [\"tm1637\"]\n[display.tm1637]\nwhite_clk = 26\n"),
        "c.toml:4: [display.tm1637] White's CLK: BCM pin 26 is already [sensors.matrix] \
         drive line 4"
    );
    assert_eq!(
        error("[display.tm1637]\nbrightness = 8\n"),
        "c.toml:2: [display.tm1637] brightness: must be from 0 to 7, not 8"
    );
    // The modules' own defaults are free pins when the expanders read
    // the board, and are not checked when no module is configured.
    let ok = |text: &str| {
        Config::parse(text, "c.toml")
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    assert_eq!(
        ok("[sensors]\nsource = \"mcp23017\"\n[display]\nfaces = [\"tm1637\"]\n"),
        Ok(())
    );
    assert_eq!(ok("[display.tm1637]\nwhite_clk = 26\n"), Ok(()));
}

#[test]
fn a_second_board_and_the_seats_are_read_and_checked() {
    let c = Config::parse(
        "[game]\nblack_moves_on = \"sighted\"\n\
         [[boards]]\nname = \"sighted\"\n[boards.sensors]\nsource = \"serial\"\n\
         [boards.sensors.serial]\nport = \"/dev/ttyACM1\"\n",
        "c.toml",
    )
    .expect("valid");
    assert_eq!(c.board_names(), ["blind", "sighted"]);
    assert_eq!(c.boards[0].sensors.serial.port, "/dev/ttyACM1");
    let seats = settings(&c).seats;
    assert_eq!(seats.white, crate::core::Seat::Board("blind".into()));
    assert_eq!(seats.black, crate::core::Seat::Board("sighted".into()));
    let relay = Config::parse("[game]\nwhite_moves_on = \"relay\"\n", "c.toml").expect("valid");
    assert_eq!(settings(&relay).seats.white, crate::core::Seat::Relay);
    let engine = Config::parse("[game]\nblack_moves_on = \"engine\"\n", "c.toml").expect("valid");
    assert_eq!(settings(&engine).seats.black, crate::core::Seat::Engine);
    assert_eq!(
        error("[engine]\nlevel = 21\n"),
        "c.toml:2: [engine] level: 21 is past 20, the strongest level"
    );
    assert_eq!(
        error("[game]\nblack_moves_on = \"sighty\"\n"),
        "c.toml:2: [game] black_moves_on = \"sighty\": no such board (the boards: blind; or \
         \"relay\" for moves relayed by hand, \"engine\" for the engine's, or \"lichess\" for \
         an opponent on lichess)"
    );
    let online = Config::parse("[game]\nblack_moves_on = \"lichess\"\n", "c.toml").expect("valid");
    assert_eq!(settings(&online).seats.black, crate::core::Seat::Lichess);
    assert!(
        error("[game]\nwhite_moves_on = \"relay\"\nblack_moves_on = \"lichess\"\n")
            .starts_with("c.toml:2: [game] white_moves_on: against an opponent on lichess"),
    );
    assert_eq!(
        error("[lichess]\nfind = \"challenge\"\n"),
        "c.toml:2: [lichess] find: a challenge needs `opponent`, the name of the player challenged"
    );
    assert_eq!(
        error("[lichess]\nlevel = 0\n"),
        "c.toml:2: [lichess] level: 0 is not from 1 to 8"
    );
    assert!(
        error("[[boards]]\nname = \"blind\"\n")
            .starts_with("c.toml:2: [[boards]] name = \"blind\""),
    );
    assert!(
        error("[[boards]]\nname = \"a\"\n[[boards]]\nname = \"a\"\n")
            .starts_with("c.toml:4: [[boards]] name = \"a\" is given twice"),
    );
    assert!(error("[[boards]]\nname = \"Two Words\"\n").contains("1 to 32 of a-z"));
}

#[test]
fn checks_across_keys_name_the_key_and_line() {
    assert_eq!(
        error("[board]\na1 = [0, 0]\nh1 = [3, 3]\n"),
        "c.toml:3: [board] h1: h1 is at [3, 3], which is not a corner of the matrix; a1, h1 \
         and h8 are corners"
    );
    assert_eq!(
        error(
            "[sensors]\nsource = \"matrix\"\n[sensors.matrix]\n\
             sense = [4, 17, 27, 22, 10, 9, 11, 5]\n"
        ),
        "c.toml:4: [sensors.matrix] sense line 7: BCM pin 5 is already [sensors.matrix] \
         drive line 0"
    );
    assert_eq!(
        error(
            "[sensors]\nsource = \"serial\"\n[[buttons.key]]\nbit = 3\n[[buttons.key]]\nbit = 3\npin = 4\n"
        ),
        "c.toml:7: [[buttons.key]] number 2 needs either `pin` (a GPIO button) or `bit` (a \
         serial scanner's button), not both or neither"
    );
    assert_eq!(
        error("[sensors]\nsource = \"serial\"\n[[buttons.key]]\nbit = 30\n"),
        "c.toml:4: [[buttons.key]] number 1: bit 30; the scanner's button bits are 0–15"
    );
}

#[test]
fn rated_play_refuses_an_engine_an_online_seat_and_the_practice_keys_at_their_lines() {
    assert_eq!(
        error("[game]\ntournament = true\nblack_moves_on = \"engine\"\n"),
        "c.toml:3: [game] black_moves_on = \"engine\": in rated play (tournament = true) both \
         players sit at the board, their moves on a board or relayed; no engine and no opponent \
         on lichess (Art. 11.3)"
    );
    let online = error("[game]\nwhite_moves_on = \"lichess\"\ntournament = true\n");
    assert!(
        online.starts_with("c.toml:2: [game] white_moves_on = \"lichess\""),
        "{online}"
    );
    for action in ["hint", "evaluation", "takeback", "review", "threat"] {
        let e = error(&format!(
            "[game]\ntournament = true\n[sensors]\nsource = \"serial\"\n\
             [[buttons.key]]\nbit = 0\npress = \"times\"\nlong = \"{action}\"\n"
        ));
        assert_eq!(
            e,
            format!(
                "c.toml:8: [[buttons.key]] number 1: long = \"{action}\" asks the engine, which \
                 rated play (tournament = true) does not allow (Art. 11.3)"
            )
        );
    }
    // The same, for practice: allowed; and rated play with a person, a
    // relay and the player's own questions.
    Config::parse("[game]\nblack_moves_on = \"engine\"\n", "c.toml").expect("practice");
    Config::parse(
        "[game]\ntournament = true\nblack_moves_on = \"relay\"\n[sensors]\n\
         source = \"serial\"\n[[buttons.key]]\nbit = 0\npress = \"position\"\n",
        "c.toml",
    )
    .expect("rated play");
}

#[test]
fn a_wrong_pin_is_refused_without_being_repeated() {
    for (text, pin) in [
        ("[console]\npin = 9876\n", "9876"),
        ("[console]\npin = 98.76\n", "98.76"),
        ("[console]\npin = \"98 76\"\n", "98 76"),
        ("[console]\npin = \"987\"\n", "987"),
        ("[console]\npin = [9876]\n", "9876"),
    ] {
        let e = error(text);
        assert!(e.starts_with("c.toml:2:"), "{e}");
        assert!(e.contains("a PIN is 4 to 32 characters"), "{e}");
        assert!(!e.contains(pin), "the PIN is in the error: {e}");
    }
    let c = Config::parse("[console]\npin = \"4711\"\n", "c").expect("valid");
    assert_eq!(c.console.pin.as_deref(), Some("4711"));
}

#[test]
fn a_scoresheet_tag_is_one_line() {
    let e = error("[game]\nevent = \"Club\\n[Result \\\"1-0\\\"]\"\n");
    assert!(e.starts_with("c.toml:2:"), "{e}");
    assert!(e.contains("one line"), "{e}");
    let c = Config::parse("[game]\nevent = \"Club night\"\n", "c").expect("valid");
    assert_eq!(c.game.event.as_deref(), Some("Club night"));
}

#[test]
fn a_mirror_host_name_must_be_a_name() {
    let c = Config::parse("[mirror]\nhosts = [\"pegboard.local\"]\n", "c").expect("valid");
    assert_eq!(c.mirror.hosts, ["pegboard.local"]);
    let e = error("[mirror]\nhosts = [\"<script>\"]\n");
    assert!(e.starts_with("c.toml:2:"), "{e}");
    assert!(e.contains("no host name"), "{e}");
}

#[test]
fn a_huge_value_is_quoted_by_its_beginning_only() {
    let text = format!("language = \"{}\"\n", "x".repeat(20_000_000));
    let err = error(&text);
    assert!(err.len() < 300, "{} bytes", err.len());
    assert!(err.starts_with("c.toml:1: language = \"xxxx"), "{err}");
}

#[test]
fn language_file_naming_and_styles_reach_the_phrasebook() {
    let c = Config::parse(
        "language = \"en\"\n[announce]\nfiles = \"nato\"\nstyle = \"long\"\nwhite_style = \"short\"\n",
        "c",
    )
    .expect("valid");
    let b = phrasebook(&c).expect("built in");
    assert_eq!(b.words.language.synthesizer, "en");
    assert_eq!(b.naming, FileNaming::Nato);
    assert_eq!(b.styles.white, Style::Short);
    assert_eq!(b.styles.black, Style::Long);
}

#[test]
fn the_voices_get_the_languages_spoken_forms() {
    let c = Config::parse("", "c").expect("valid");
    let words = phrasebook(&c).expect("fide");
    let language = voice_language(&c, &words);
    assert_eq!(language.synthesizer, "de");
    assert_eq!(language.spoken.apply("Kurze Rochade"), "Kurze Roschade");
    // What is shown is not touched.
    assert_eq!(words.words.moves.castle_short, "Kurze Rochade");
}

#[test]
fn unknown_language_lists_the_built_in_ones_at_its_line() {
    let err = error("# my setup\nlanguage = \"klingon\"\n");
    assert!(
        err.starts_with("c.toml:2: language = \"klingon\": no such built-in language"),
        "{err}"
    );
    assert!(err.contains("built in: ca, de, en, es, fide, pt"), "{err}");
    let err = error("language = \"./missing.toml\"\n");
    assert!(
        err.starts_with(
            "c.toml:1: language = \"./missing.toml\": the language file cannot be read"
        ),
        "{err}"
    );
}

#[test]
fn bad_style_names_key_and_line() {
    assert!(
        error("[announce]\nstyle = \"medium\"\n")
            .starts_with("c.toml:2: [announce] style: unknown variant `medium`")
    );
}

#[test]
fn unknown_voice_names_key_and_line() {
    assert!(
        error("[speech]\nvoices = [\"clips\", \"espeak\"]\n")
            .starts_with("c.toml:2: [speech] voices: unknown variant `espeak`")
    );
}

#[test]
fn clock_controls_reach_the_settings_in_either_form() {
    let human = Config::parse("[clock]\ncontrol = \"40/90,30+30\"\n", "c").expect("valid");
    let pgn = Config::parse("[clock]\npgn_control = \"40/5400+30:1800+30\"\n", "c").expect("valid");
    assert!(settings(&human).clock.control.is_some());
    assert_eq!(settings(&human).clock, settings(&pgn).clock);
    let c = Config::parse(
        "[clock]\ncontrol = \"5+3\"\nwarnings = [60]\nwarn = \"white\"\nflag = \"claim\"\n",
        "c",
    )
    .expect("valid");
    let s = settings(&c).clock;
    assert_eq!(s.warnings_ms, vec![60_000]);
    assert_eq!(s.warn, Players::White);
    assert_eq!(s.flag, FlagRule::Claim);
}

#[test]
fn bad_time_control_names_key_and_line() {
    let err = error("[clock]\n\ncontrol = \"ninety minutes\"\n");
    assert!(
        err.starts_with(
            "c.toml:3: [clock] control: \"ninety minutes\" is not a time control: a time \
             control is minutes"
        ),
        "{err}"
    );
    assert_eq!(
        error("[clock]\ncontrol = \"90\"\npgn_control = \"5400\"\n"),
        "c.toml:3: [clock] sets both `control` and `pgn_control`; set one of them"
    );
    assert!(
        error("[clock]\npgn_control = \"40/5400+30:99999999\"\n")
            .starts_with("c.toml:2: [clock] pgn_control: time control")
    );
}

#[test]
fn check_config_and_play_reach_one_verdict_on_the_sensors() {
    let dir = std::env::temp_dir().join(format!("pegboard-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("c.toml");
    let load = |text: &str| {
        std::fs::write(&path, text).expect("write");
        Config::load(&path.to_string_lossy()).expect("the file itself is valid")
    };
    let err = usable(&load("[sensors]\nsource = \"trace\"\n")).unwrap_err();
    assert_eq!(err.line, Some(2));
    assert!(err.message.contains("needs [sensors.trace] file"), "{err}");
    let err = usable(&load(
        "[sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"/nowhere.jsonl\"\n",
    ))
    .unwrap_err();
    assert_eq!(err.line, Some(4));
    assert!(err.message.contains("cannot be read"), "{err}");
    #[cfg(not(feature = "rpi"))]
    {
        let err = usable(&load("[sensors]\nsource = \"matrix\"\n")).unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(
            err.message.contains("without Raspberry Pi support"),
            "{err}"
        );
        let err = usable(&load(
            "[sensors]\nsource = \"serial\"\n[[buttons.key]]\npin = 17\n",
        ))
        .unwrap_err();
        assert_eq!(err.line, Some(4));
        assert!(err.message.contains("GPIO `pin`"), "{err}");
    }
    assert!(usable(&load("[sensors]\nsource = \"serial\"\n")).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_increment_timing_is_chosen_in_the_file() {
    assert_eq!(
        settings(&Config::parse("", "c").expect("valid"))
            .clock
            .increment,
        IncrementTiming::Before,
        "the hall's clocks by default"
    );
    let c =
        Config::parse("[clock]\ncontrol = \"90+30\"\nincrement = \"after\"\n", "c").expect("valid");
    assert_eq!(settings(&c).clock.increment, IncrementTiming::After);
    assert!(
        error("[clock]\nincrement = \"sometimes\"\n")
            .starts_with("c.toml:2: [clock] increment: unknown variant `sometimes`")
    );
}

#[test]
fn values_reach_the_settings() {
    let c = Config::parse(
        "[debounce]\nwindow_ms = 30\n[tracker]\ntouch_policy = \"enforce\"\ndefault_promotion = \"q\"\n",
        "c",
    )
    .expect("valid");
    let s = settings(&c);
    assert_eq!(s.debounce_ms, 30);
    assert_eq!(s.touch_policy, TouchPolicy::Enforce);
    assert_eq!(s.default_promotion, Some(Role::Queen));
}

#[test]
fn the_menu_keys_are_checked_at_the_key_and_line() {
    let serial = "[sensors]\nsource = \"serial\"\n";
    // The menu opens, but no key goes back.
    assert_eq!(
        error(&format!(
            "{serial}[[buttons.key]]\nbit = 0\npress = \"menu\"\nmenu = \"next\"\n\
             [[buttons.key]]\nbit = 1\npress = \"times\"\nmenu = \"select\"\n"
        )),
        "c.toml:5: [[buttons.key]] number 1: the `menu` action needs keys with menu = \
         \"next\", \"select\" and \"back\"; none has menu = \"back\""
    );
    // A menu role, and nothing opens the menu.
    assert_eq!(
        error(&format!(
            "{serial}[[buttons.key]]\nbit = 0\npress = \"repeat\"\n\
             [[buttons.key]]\nbit = 1\npress = \"times\"\nmenu = \"select\"\n"
        )),
        "c.toml:9: [[buttons.key]] number 2: a `menu` role, but no key has the `menu` action \
         that opens the menu"
    );
    // A menu key that begins a digit entry.
    let text = format!(
        "{serial}[[buttons.key]]\nbit = 0\npress = \"square\"\nlong = \"menu\"\nmenu = \"next\"\n\
         [[buttons.key]]\nbit = 1\npress = \"times\"\nmenu = \"select\"\n\
         [[buttons.key]]\nbit = 2\npress = \"adjust\"\nmenu = \"back\"\n"
    );
    assert_eq!(
        error(&text),
        "c.toml:5: [[buttons.key]] number 1: a key with a `menu` role may not begin a digit \
         entry (its presses are menu steps while the menu is open); give that action to a key \
         without one"
    );
    // An unknown role names its value and the roles there are.
    let e = error(&format!(
        "{serial}[[buttons.key]]\nbit = 0\npress = \"menu\"\nmenu = \"up\"\n"
    ));
    assert!(e.starts_with("c.toml:6:"), "{e}");
    assert!(
        e.contains("unknown menu role \"up\"; the roles are: next, select, back"),
        "{e}"
    );
    // Six keys with the menu on them, as config/gpio-matrix.toml has.
    let ok = text.replace("press = \"square\"", "press = \"repeat\"");
    Config::parse(&ok, "c.toml").expect("three menu keys and one that opens it");
}

#[test]
fn the_edition_of_the_laws_is_read_and_a_wrong_one_named_at_its_key_and_line() {
    let c = Config::parse("[game]\nlaws = \"2008\"\n", "c").expect("valid");
    assert_eq!(settings(&c).laws, crate::core::laws::Edition::Laws2008);
    let c = Config::parse("", "c").expect("valid");
    assert_eq!(settings(&c).laws, crate::core::laws::Edition::Laws2023);
    let err = error("[game]\n\nlaws = \"2018\"\n");
    assert!(
        err.starts_with("c.toml:3: [game] laws: `laws` is the edition of the FIDE Laws"),
        "{err}"
    );
    assert!(
        err.contains("\"2023\"") && err.contains("\"2008\""),
        "{err}"
    );
    let err = error("[game]\nlaws = 2023\n");
    assert!(err.starts_with("c.toml:2: [game] laws:"), "{err}");
}

#[test]
fn the_illegal_moves_that_lose_are_configured_under_either_name() {
    for key in ["illegal_moves_lose", "third_illegal_move_loses"] {
        let c = Config::parse(&format!("[clock]\n{key} = false\n"), "c").expect("valid");
        assert!(!settings(&c).clock.illegal_moves_lose, "{key}");
    }
}
