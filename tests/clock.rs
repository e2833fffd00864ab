//! The clock (Art. 6, E2.3, A4, 7.4b, 9.5b, 10.2), driven through traces:
//! every rule at an exact simulated millisecond.

mod common;

use common::{of, parse, run_with};
use pegboard::core::{ClockStart, FlagRule, Players, Settings};
use serde_json::Value;

fn settings() -> Settings {
    Settings::default()
}

fn run(text: &str) -> Vec<Value> {
    run_with(&parse(text), settings())
}

/// The `clock` events, as (t, cause, running, white ms, black ms).
fn clocks(events: &[Value]) -> Vec<(u64, String, String, u64, u64)> {
    of(events, "clock")
        .iter()
        .map(|e| {
            (
                e["t"].as_u64().unwrap_or(u64::MAX),
                e["cause"].as_str().unwrap_or_default().to_string(),
                e["running"].as_str().unwrap_or("none").to_string(),
                e["white"]["remaining_ms"].as_u64().unwrap_or(u64::MAX),
                e["black"]["remaining_ms"].as_u64().unwrap_or(u64::MAX),
            )
        })
        .collect()
}

/// The clock events a penalty gave.
fn penalties(events: &[Value]) -> Vec<(u64, String, String, u64, u64)> {
    clocks(events)
        .into_iter()
        .filter(|c| c.1 == "penalty")
        .collect()
}

/// What the blind player hears said: notices, and the answers to his
/// questions (his alone).
fn says(events: &[Value]) -> Vec<String> {
    common::says(events)
        .into_iter()
        .map(str::to_string)
        .collect()
}

fn game_over(events: &[Value]) -> Option<(u64, String, String)> {
    of(events, "game_over").first().map(|e| {
        (
            e["t"].as_u64().unwrap_or(u64::MAX),
            e["result"].as_str().unwrap_or_default().to_string(),
            e["reason"].as_str().unwrap_or_default().to_string(),
        )
    })
}

/// 1. e4, its announcement starting at `announced`.
fn e4_announced_at(header_control: &str, announced: u64) -> String {
    format!(
        r#"{{"t":0,"trace":1,"start":"startpos","time_control":"{header_control}"}}
{{"t":1000,"lift":"e2"}}
{{"t":1100,"place":"e4"}}
{{"t":{announced},"input":"announced","ply":1}}"#
    )
}

#[test]
fn art_6_5_whites_clock_starts_with_the_game() {
    let ev = run(r#"{"t":0,"trace":1,"time_control":"300+2"}"#);
    // Both clocks show the first move's increment already, as the hall's
    // clocks do (`increment = "before"`, the default).
    assert_eq!(
        clocks(&ev)[0],
        (0, "start".into(), "white".into(), 302_000, 302_000)
    );
    // Which the stream says right after `ready`.
    assert_eq!(ev[0]["event"], "ready");
    assert_eq!(ev[1]["event"], "clock");
}

#[test]
fn e2_3_the_blind_players_clock_is_pressed_when_his_move_is_announced() {
    let ev = run(&e4_announced_at("300+2", 1500));
    let moved = of(&ev, "move")[0]["t"].as_u64().unwrap_or(0);
    assert!(
        moved < 1500,
        "the move was executed before it was announced"
    );
    // Executed is not enough (E2.3c): no press until the announcement.
    assert_eq!(
        clocks(&ev)[1],
        (
            1500,
            "press".into(),
            "black".into(),
            302_000 - 1500 + 2000,
            302_000
        )
    );
    // The next clock event is Black's flag, long after the trace ends.
    assert_eq!(clocks(&ev)[2].1, "flag");
}

#[test]
fn art_6_7_the_sighted_player_completes_his_move_by_pressing_the_clock() {
    let mut s = settings();
    s.clock.controller_presses = Players::White;
    let ev = run_with(
        &parse(
            r#"{"t":0,"trace":1,"time_control":"300+2"}
{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":1500,"input":"announced","ply":1}
{"t":5000,"input":"clock","color":"black"}
{"t":6000,"lift":"e7"}
{"t":6100,"place":"e5"}
{"t":6500,"input":"announced","ply":2}
{"t":7000,"input":"clock","color":"black"}"#,
        ),
        s,
    );
    // Black's press at 5000 counts; his move's announcement on the blind
    // board and a second press while his clock stands change nothing.
    let c = clocks(&ev);
    // (After the trace's last line, White's time runs out: c[3] and on.)
    assert_eq!(c[3].1, "flag", "{c:?}");
    assert_eq!(
        c[2],
        (
            5000,
            "press".into(),
            "white".into(),
            302_500,
            302_000 - 3500 + 2000
        )
    );
}

#[test]
fn art_6_5_the_clock_can_start_at_the_first_move_instead() {
    let mut s = settings();
    s.clock.start = ClockStart::FirstMove;
    let ev = run_with(&parse(&e4_announced_at("300+2", 1500)), s);
    // Nothing runs until White's first move is complete; its press gives
    // White the increment for his second move.
    assert_eq!(
        clocks(&ev)[0],
        (1500, "start".into(), "black".into(), 304_000, 302_000)
    );
}

#[test]
fn e2_3_a_move_whose_announcement_report_was_lost_is_pressed_with_the_next() {
    let ev = run(r#"{"t":0,"trace":1,"time_control":"300"}
{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":2000,"lift":"e7"}
{"t":2100,"place":"e5"}
{"t":2500,"input":"announced","ply":2}"#);
    let c = clocks(&ev);
    assert_eq!(
        c[1],
        (2500, "press".into(), "black".into(), 297_500, 300_000)
    );
    assert_eq!(
        c[2],
        (2500, "press".into(), "white".into(), 297_500, 300_000)
    );
}

#[test]
fn art_6_3_reaching_the_move_count_adds_the_next_periods_time() {
    // One move in 300 s, then 300 s more.
    let ev = run(&e4_announced_at("1/300:300", 1500));
    let e = of(&ev, "clock")[1];
    assert_eq!(e["cause"], "period");
    assert_eq!(e["white"]["period"], 2);
    assert_eq!(e["white"]["moves"], 1);
    assert_eq!(e["white"]["remaining_ms"], 300_000 - 1500 + 300_000);
    assert_eq!(e["black"]["period"], 1);
}

#[test]
fn art_6_9_a_fallen_flag_loses_to_the_millisecond() {
    let ev = run(r#"{"t":0,"trace":1,"time_control":"60"}"#);
    let flag = of(&ev, "flag");
    assert_eq!(flag.len(), 1);
    assert_eq!(flag[0]["t"], 60_000);
    assert_eq!(flag[0]["color"], "white");
    assert_eq!(flag[0]["say"], "Zeit abgelaufen: Weiß.");
    assert_eq!(game_over(&ev), Some((60_000, "0-1".into(), "flag".into())));
    // The clock stands once the game is over.
    assert_eq!(
        clocks(&ev).last().cloned(),
        Some((60_000, "stop".into(), "none".into(), 0, 60_000))
    );
}

#[test]
fn art_6_9_a_flag_is_a_draw_when_the_opponent_cannot_mate() {
    // Black has a bare king: he cannot mate by any legal sequence.
    let ev =
        run(r#"{"t":0,"trace":1,"start":"4k3/8/8/8/8/8/8/R3K3 w - - 0 1","time_control":"60"}"#);
    let (t, result, reason) = game_over(&ev).expect("game over");
    assert_eq!(
        (t, result.as_str(), reason.as_str()),
        (60_000, "1/2-1/2", "flag")
    );
    let say = of(&ev, "game_over")[0]["say"].as_str().unwrap_or_default();
    assert!(say.contains("kein Matt möglich"), "{say}");
}

fn claim_settings() -> Settings {
    let mut s = settings();
    s.clock.flag = FlagRule::Claim;
    s
}

#[test]
fn a4d_in_blitz_a_flag_counts_only_on_a_valid_claim() {
    let ev = run_with(
        &parse(
            r#"{"t":0,"trace":1,"time_control":"180+2"}
{"t":1000,"input":"flag_claim","color":"white"}
{"t":1001,"input":"flag_claim","color":"black"}
{"t":190000,"input":"flag_claim","color":"black"}"#,
        ),
        claim_settings(),
    );
    // Before the flag falls, the claim is wrong.
    assert_eq!(says(&ev)[0], "Die Zeit des Gegners ist nicht abgelaufen.");
    assert_eq!(says(&ev)[1], "Die Zeit des Gegners ist nicht abgelaufen.");
    // It falls at 182 s (3 minutes and the first move's 2 s), but the
    // game goes on until Black claims.
    assert_eq!(of(&ev, "flag")[0]["t"], 182_000);
    assert_eq!(game_over(&ev), Some((190_000, "0-1".into(), "flag".into())));
}

#[test]
fn a4d_a_standard_game_counts_the_flag_at_once_even_when_claims_are_configured() {
    let ev = run_with(
        &parse(r#"{"t":0,"trace":1,"time_control":"40/5400"}"#),
        claim_settings(),
    );
    assert_eq!(
        game_over(&ev),
        Some((5_400_000, "0-1".into(), "flag".into()))
    );
}

#[test]
fn a4d_both_flags_fallen_where_flags_count_on_a_claim_draw_in_any_period() {
    // 2008 A4d(3) (today the rapid appendix alike): where a flag counts
    // only on a claim, both flags fallen is a draw, in the last period…
    let last = run_with(
        &parse(
            r#"{"t":0,"trace":1,"time_control":"60"}
{"t":61000,"lift":"e2"}
{"t":61100,"place":"e4"}
{"t":61500,"input":"announced","ply":1}"#,
        ),
        claim_settings(),
    );
    let flags: Vec<(u64, &str)> = of(&last, "flag")
        .iter()
        .map(|e| {
            (
                e["t"].as_u64().unwrap_or(0),
                e["color"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(flags, vec![(60_000, "white"), (121_500, "black")]);
    assert_eq!(
        game_over(&last),
        Some((121_500, "1/2-1/2".into(), "both_flags".into()))
    );
    // …and before it: two moves in 60 s, then 60 s; White's flag falls on
    // move 1, Black's on his first move.
    let earlier = run_with(
        &parse(
            r#"{"t":0,"trace":1,"time_control":"2/60:60","laws":"2008"}
{"t":61000,"lift":"e2"}
{"t":61100,"place":"e4"}
{"t":61500,"input":"announced","ply":1}"#,
        ),
        claim_settings(),
    );
    assert_eq!(of(&earlier, "flag").len(), 2);
    assert_eq!(
        game_over(&earlier),
        Some((121_500, "1/2-1/2".into(), "both_flags".into()))
    );
}

#[test]
fn a4d_a_flag_claim_holds_only_while_the_claimants_own_flag_is_up() {
    // 2008 A4d(2): White's flag falls first; Black, whose flag then falls
    // too, can no longer claim White's (the game is drawn, A4d(3)); a claim
    // while his own flag is up wins.
    let both = run_with(
        &parse(
            r#"{"t":0,"trace":1,"time_control":"60","laws":"2008"}
{"t":61000,"lift":"e2"}
{"t":61100,"place":"e4"}
{"t":61500,"input":"announced","ply":1}
{"t":125000,"input":"flag_claim","color":"black"}"#,
        ),
        claim_settings(),
    );
    assert_eq!(
        game_over(&both),
        Some((121_500, "1/2-1/2".into(), "both_flags".into()))
    );
    let up = run_with(
        &parse(
            r#"{"t":0,"trace":1,"time_control":"60","laws":"2008"}
{"t":61000,"lift":"e2"}
{"t":61100,"place":"e4"}
{"t":61500,"input":"announced","ply":1}
{"t":62000,"input":"flag_claim","color":"black"}"#,
        ),
        claim_settings(),
    );
    assert_eq!(game_over(&up), Some((62_000, "0-1".into(), "flag".into())));
}

#[test]
fn art_6_12_the_arbiter_stops_and_restarts_the_clock() {
    let ev = run(r#"{"t":0,"trace":1,"time_control":"300"}
{"t":10000,"input":"pause"}
{"t":20000,"input":"resume"}
{"t":24000,"lift":"e2"}
{"t":24100,"place":"e4"}
{"t":25000,"input":"announced","ply":1}"#);
    let c = clocks(&ev);
    assert_eq!(
        c[1],
        (10_000, "pause".into(), "white".into(), 290_000, 300_000)
    );
    assert_eq!(
        c[2],
        (20_000, "resume".into(), "white".into(), 290_000, 300_000)
    );
    // Ten seconds before the pause, five after it.
    assert_eq!(
        c[3],
        (25_000, "press".into(), "black".into(), 285_000, 300_000)
    );
    assert_eq!(of(&ev, "clock")[1]["paused"], true);
    assert_eq!(says(&ev)[..2], ["Uhr angehalten.", "Uhr läuft."]);
}

#[test]
fn art_6_13_the_arbiter_sets_times_and_move_counters() {
    let ev = run(r#"{"t":0,"trace":1,"time_control":"40/5400:1800"}
{"t":1000,"input":"set_clock","white_ms":245000,"white_moves":38,"black_moves":38}"#);
    let e = of(&ev, "clock")[1];
    assert_eq!(e["cause"], "set");
    assert_eq!(e["white"]["remaining_ms"], 245_000);
    assert_eq!(e["white"]["moves"], 38);
    // Black's clock stands while White's runs: untouched.
    assert_eq!(e["black"]["remaining_ms"], 5_400_000);
    assert_eq!(
        says(&ev)[0],
        "Uhr gestellt. Zug 38. Weiß 4 Minuten 5 Sekunden, Schwarz eine Stunde 30 Minuten. \
         Noch 2 Züge bis zur Zeitkontrolle."
    );
}

#[test]
fn art_7_4_b_completed_illegal_moves_give_two_minutes_and_the_third_loses() {
    // The 2008 Laws: two minutes for each of the first two, the third
    // loses.
    let text = r#"{"t":0,"trace":1,"time_control":"300","laws":"2008"}
{"t":1000,"input":"illegal_move","color":"black"}
{"t":2000,"input":"illegal_move","color":"black"}
{"t":3000,"input":"illegal_move","color":"black"}"#;
    let ev = run(text);
    let penalties = penalties(&ev);
    assert_eq!(
        penalties,
        vec![
            (
                1000,
                "penalty".into(),
                "white".into(),
                299_000 + 120_000,
                300_000
            ),
            (
                2000,
                "penalty".into(),
                "white".into(),
                298_000 + 240_000,
                300_000
            ),
        ]
    );
    assert_eq!(says(&ev)[0], "2 Minuten mehr für Weiß.");
    assert_eq!(
        game_over(&ev),
        Some((3000, "1-0".into(), "illegal_moves".into()))
    );

    // Configured otherwise, the third costs two minutes like the others.
    let mut s = settings();
    s.clock.illegal_moves_lose = false;
    let ev = run_with(&parse(text), s);
    // (White's flag falls after the trace ends, with 6 minutes more.)
    assert_eq!(game_over(&ev), Some((660_000, "0-1".into(), "flag".into())));
    assert_eq!(clocks(&ev).iter().filter(|c| c.1 == "penalty").count(), 3);
}

#[test]
fn art_7_5_5_today_the_second_completed_illegal_move_loses() {
    // Today's Laws (the default): two minutes for the first, the second
    // loses; the game is drawn if the opponent cannot mate.
    let text = r#"{"t":0,"trace":1,"time_control":"5400"}
{"t":1000,"input":"illegal_move","color":"black"}
{"t":2000,"input":"illegal_move","color":"black"}"#;
    let ev = run(text);
    let penalties = penalties(&ev);
    assert_eq!(
        penalties,
        vec![(
            1000,
            "penalty".into(),
            "white".into(),
            5_399_000 + 120_000,
            5_400_000
        )]
    );
    assert_eq!(
        game_over(&ev),
        Some((2000, "1-0".into(), "illegal_moves".into()))
    );
    assert_eq!(
        of(&ev, "game_over")[0]["say"],
        "Regelwidriger Zug von Schwarz. Weiß gewinnt."
    );
    let bare = r#"{"t":0,"trace":1,"start":"4k3/8/8/8/8/8/8/4K2R w K - 0 1","time_control":"5400"}
{"t":1000,"input":"illegal_move","color":"white"}
{"t":2000,"input":"illegal_move","color":"white"}"#;
    // Black, with his king alone, cannot mate: drawn.
    assert_eq!(
        game_over(&run(bare)),
        Some((2000, "1/2-1/2".into(), "illegal_moves".into()))
    );
}

#[test]
fn appendix_b_today_the_penalties_in_blitz_are_one_minute() {
    // Today's B.2: in every blitz game, supervised or not, the penalties
    // of Articles 7 and 9 are one minute; the 2008 Laws keep two.
    let blitz = |laws: &str, flag: FlagRule| {
        let mut s = settings();
        s.clock.flag = flag;
        let ev = run_with(
            &parse(&format!(
                r#"{{"t":0,"trace":1,"time_control":"300"{laws}}}
{{"t":1000,"input":"illegal_move","color":"black"}}"#
            )),
            s,
        );
        penalties(&ev).first().map(|c| c.3 - (300_000 - 1000))
    };
    assert_eq!(blitz("", FlagRule::Automatic), Some(60_000));
    assert_eq!(blitz("", FlagRule::Claim), Some(60_000));
    assert_eq!(
        blitz(r#","laws":"2008""#, FlagRule::Automatic),
        Some(120_000)
    );
}

#[test]
fn b3_c_in_2008_blitz_without_supervision_a_claimed_illegal_move_loses() {
    // The 2008 Laws' B3c: in blitz without adequate supervision the
    // opponent's claim of a completed illegal move wins at once (drawn if
    // he cannot mate); supervised, 7.4b's two minutes.
    let claimed = |start: &str, flag: FlagRule| {
        let mut s = settings();
        s.clock.flag = flag;
        run_with(
            &parse(&format!(
                r#"{{"t":0,"trace":1,"start":"{start}","time_control":"300","laws":"2008"}}
{{"t":1000,"input":"illegal_move","color":"black"}}"#
            )),
            s,
        )
    };
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let ev = claimed(start, FlagRule::Claim);
    assert_eq!(
        game_over(&ev),
        Some((1000, "1-0".into(), "illegal_moves".into()))
    );
    assert_eq!(
        of(&ev, "game_over")[0]["say"],
        "Regelwidriger Zug von Schwarz. Weiß gewinnt."
    );
    // White, with his king alone, cannot mate: drawn.
    let ev = claimed("4k2r/8/8/8/8/8/8/4K3 w k - 0 1", FlagRule::Claim);
    assert_eq!(
        game_over(&ev),
        Some((1000, "1/2-1/2".into(), "illegal_moves".into()))
    );
    let ev = claimed(start, FlagRule::Automatic);
    assert_ne!(game_over(&ev).map(|g| g.2), Some("illegal_moves".into()));
    assert_eq!(penalties(&ev).len(), 1);
}

#[test]
fn art_9_5_b_an_incorrect_draw_claim_gives_the_opponent_three_minutes() {
    // The 2008 Laws' three minutes (9.5b).
    let ev = run(r#"{"t":0,"trace":1,"time_control":"300","laws":"2008"}
{"t":1000,"input":"draw_claim","color":"white"}"#);
    assert_eq!(
        clocks(&ev)[1],
        (1000, "penalty".into(), "white".into(), 299_000, 480_000)
    );
    assert_eq!(
        says(&ev),
        [
            "Remisreklamation nicht berechtigt.",
            "3 Minuten mehr für Schwarz."
        ]
    );
    // 9.1b: the claim stands as White's offer of a draw.
    assert_eq!(of(&ev, "draw_offer")[0]["color"], "white");
}

#[test]
fn art_9_5_3_today_an_incorrect_draw_claim_gives_two_minutes_and_one_in_rapid() {
    let ev = run(r#"{"t":0,"trace":1,"time_control":"5400"}
{"t":1000,"input":"draw_claim","color":"white"}"#);
    assert_eq!(
        clocks(&ev)[1],
        (1000, "penalty".into(), "white".into(), 5_399_000, 5_520_000)
    );
    // A.3: in rapid chess the penalties of Articles 7 and 9 are one
    // minute; not so under the 2008 Laws.
    let rapid = |laws: &str| {
        run(&format!(
            r#"{{"t":0,"trace":1,"time_control":"1500"{laws}}}
{{"t":1000,"input":"draw_claim","color":"white"}}
{{"t":2000,"input":"illegal_move","color":"black"}}"#
        ))
    };
    let penalties = |ev: &[Value]| -> Vec<(u64, u64)> {
        penalties(ev).into_iter().map(|c| (c.3, c.4)).collect()
    };
    // Black is given a minute for White's claim, White one for Black's
    // illegal move.
    assert_eq!(
        penalties(&rapid("")),
        [(1_499_000, 1_560_000), (1_558_000, 1_560_000)]
    );
    assert_eq!(
        penalties(&rapid(r#","laws":"2008""#)),
        [(1_499_000, 1_680_000), (1_618_000, 1_680_000)]
    );
}

/// Twenty minutes without increment, a rapid game the quickplay finish
/// serves (today's Guidelines III.2.2); White, to move, is left with 100 s
/// and claims at 4 s (with 98 s), after a claim with too much time (1 s) and one out of
/// turn (3 s). Then the arbiter's rulings, from 10 s.
fn quickplay(rulings: &str) -> Vec<Value> {
    run(&format!(
        r#"{{"t":0,"trace":1,"time_control":"1200"}}
{{"t":1000,"input":"quickplay_claim","color":"white"}}
{{"t":2000,"input":"set_clock","white_ms":100000}}
{{"t":3000,"input":"quickplay_claim","color":"black"}}
{{"t":4000,"input":"quickplay_claim","color":"white"}}
{rulings}"#
    ))
}

#[test]
fn art_10_2_a_the_arbiter_declares_a_quickplay_claim_drawn() {
    let ev = quickplay(r#"{"t":10000,"input":"quickplay_draw"}"#);
    let s = says(&ev);
    // More than two minutes left, or not his move: refused.
    assert_eq!(
        s[0],
        "Remisantrag nur am Zug, nach der letzten Zeitkontrolle und mit weniger als zwei Minuten."
    );
    assert_eq!(s[2], s[0]);
    // The claim waits for the arbiter: no time is given yet.
    assert_eq!(s[3], "Remisantrag. Der Schiedsrichter entscheidet.");
    assert!(penalties(&ev).is_empty(), "{ev:?}");
    assert_eq!(
        game_over(&ev),
        Some((10_000, "1/2-1/2".into(), "quickplay_finish".into()))
    );
    assert_eq!(
        of(&ev, "game_over")[0]["say"],
        "Schiedsrichter: die Partie ist remis."
    );
}

#[test]
fn art_10_2_c_a_rejected_claim_gives_the_opponent_two_minutes() {
    let ev = quickplay(r#"{"t":10000,"input":"quickplay_reject"}"#);
    assert!(says(&ev).contains(&"Remisantrag verworfen.".to_string()));
    assert_eq!(
        penalties(&ev),
        vec![(10_000, "penalty".into(), "white".into(), 92_000, 1_320_000)]
    );
    // The game goes on, and White's flag then counts at once.
    assert_eq!(game_over(&ev), Some((102_000, "0-1".into(), "flag".into())));
}

#[test]
fn art_10_2_b_a_postponed_claim_gives_two_minutes_once_and_the_flag_waits_for_the_ruling() {
    // Postponed: two minutes for Black, once; White's flag falls at 102 s
    // and the result waits for the arbiter, who then declares it drawn, …
    let ev = quickplay(
        r#"{"t":10000,"input":"quickplay_postpone"}
{"t":20000,"input":"quickplay_postpone"}
{"t":110000,"input":"quickplay_postpone"}
{"t":120000,"input":"quickplay_draw"}"#,
    );
    let s = says(&ev);
    assert!(s.contains(&"Die Partie geht weiter.".to_string()), "{s:?}");
    assert_eq!(
        penalties(&ev),
        vec![(10_000, "penalty".into(), "white".into(), 92_000, 1_320_000)]
    );
    assert_eq!(of(&ev, "flag")[0]["t"], 102_000);
    assert!(
        s.contains(&"Der Schiedsrichter entscheidet.".to_string()),
        "{s:?}"
    );
    // A postponement after the flag is refused: the arbiter decides now.
    let refused = of(&ev, "refused");
    assert_eq!(refused.len(), 1, "{ev:?}");
    assert_eq!(refused[0]["given"], "quickplay_postpone");
    assert_eq!(refused[0]["reason"], "flag_fallen");
    assert_eq!(
        game_over(&ev),
        Some((120_000, "1/2-1/2".into(), "quickplay_finish".into()))
    );
    // … or rejects it: then the flag counts, and no more time is given.
    let ev = quickplay(
        r#"{"t":10000,"input":"quickplay_postpone"}
{"t":120000,"input":"quickplay_reject"}"#,
    );
    assert_eq!(penalties(&ev).len(), 1, "{ev:?}");
    assert_eq!(game_over(&ev), Some((120_000, "0-1".into(), "flag".into())));
}

#[test]
fn art_10_2_a_ruling_needs_a_claim_to_rule_on() {
    let ev = run(r#"{"t":0,"trace":1,"time_control":"1200"}
{"t":1000,"input":"quickplay_draw"}
{"t":2000,"input":"quickplay_reject"}"#);
    let refused = of(&ev, "refused");
    assert_eq!(refused.len(), 2, "{ev:?}");
    assert!(refused.iter().all(|r| r["reason"] == "no_claim"));
    assert_eq!(refused[0]["say"], "Kein Remisantrag.");
    assert!(penalties(&ev).is_empty());
}

#[test]
fn e2_9_d_times_are_said_on_request_with_seconds_only_under_ten_minutes() {
    let ev = run(r#"{"t":0,"trace":1,"time_control":"40/5400+30:1800+30"}
{"t":500,"input":"times"}
{"t":124000,"lift":"e2"}
{"t":124100,"place":"e4"}
{"t":125000,"input":"announced","ply":1}
{"t":199000,"lift":"e7"}
{"t":199100,"place":"e5"}
{"t":200000,"input":"announced","ply":2}
{"t":300000,"input":"times"}"#);
    // Before the first move no move count. Then, each clock its own:
    // White 1:30:30 − 125 s + 30 s = 1:28:55 at his press, running
    // 100 s more since Black's: 1:27:15. Black 1:30:30 − 75 s + 30 s
    // = 1:29:45, standing. One move completed (E2.9d), 39 for White,
    // who is to move, to the control.
    assert_eq!(
        says(&ev)
            .into_iter()
            .filter(|s| s.contains("Minuten"))
            .collect::<Vec<_>>(),
        [
            "Weiß eine Stunde 30 Minuten, Schwarz eine Stunde 30 Minuten. \
          Noch 40 Züge bis zur Zeitkontrolle.",
            "Zug 1. Weiß eine Stunde 27 Minuten, Schwarz eine Stunde 29 Minuten. \
          Noch 39 Züge bis zur Zeitkontrolle."
        ]
    );
    let ev = run(r#"{"t":0,"trace":1,"time_control":"540+2"}
{"t":1000,"input":"times"}"#);
    assert_eq!(
        says(&ev),
        ["Weiß 9 Minuten eine Sekunde, Schwarz 9 Minuten 2 Sekunden."]
    );
}

#[test]
fn low_time_warnings_come_for_the_warned_players_own_clock_only() {
    let mut s = settings();
    s.clock.warn = Players::White;
    s.clock.warnings_ms = vec![60_000, 10_000];
    let ev = run_with(
        &parse(
            r#"{"t":0,"trace":1,"time_control":"120"}
{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":1500,"input":"announced","ply":1}
{"t":119000,"lift":"e7"}
{"t":119100,"place":"e5"}
{"t":119500,"input":"announced","ply":2}"#,
        ),
        s,
    );
    let warnings: Vec<(u64, &str, &str)> = of(&ev, "time_warning")
        .iter()
        .map(|e| {
            (
                e["t"].as_u64().unwrap_or(0),
                e["color"].as_str().unwrap_or(""),
                e["say"].as_str().unwrap_or(""),
            )
        })
        .collect();
    // Black ran down to 2 s and heard nothing; White, from 118.5 s left at
    // 119.5 s, hears "one minute" at 178 s and "ten seconds" at 228 s.
    assert_eq!(
        warnings,
        vec![
            (178_000, "white", "Weiß noch eine Minute."),
            (228_000, "white", "Weiß noch 10 Sekunden."),
        ]
    );
}

/// The `time_warning` events, as (t, colour).
fn warnings(events: &[Value]) -> Vec<(u64, String)> {
    of(events, "time_warning")
        .iter()
        .map(|e| {
            (
                e["t"].as_u64().unwrap_or(0),
                e["color"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn art_12_6_at_5_plus_3_no_five_minute_warning_comes_as_the_game_begins() {
    // 5+3, the increment given before each move (the default): White
    // starts with 5:03. Before, "5 minutes left" came 3 s into the game.
    let ev = run(
        r#"{"t":0,"trace":1,"start":"startpos","time_control":"300+3"}
{"t":20000,"lift":"e2"}
{"t":20100,"place":"e4"}
{"t":20500,"input":"announced","ply":1}
{"t":40000,"lift":"e7"}
{"t":40100,"place":"e5"}
{"t":40500,"input":"announced","ply":2}
{"t":60000,"input":"times"}"#,
    );
    // (The trace's end fires the timers still set: those after 60 s.)
    let early: Vec<_> = warnings(&ev)
        .into_iter()
        .filter(|w| w.0 <= 60_000)
        .collect();
    assert_eq!(early, [], "{ev:?}");
}

#[test]
fn art_12_6_by_default_only_the_blind_players_own_clock_is_warned_from_well_above() {
    // 15+10; the blind player is White (the default), Black the engine.
    // Both think five and a half minutes on their first move: each time
    // falls past 10 minutes from 15. Only White hears of it.
    let ev = run(
        r#"{"t":0,"trace":1,"start":"startpos","time_control":"900+10","black_moves_on":"engine"}
{"t":330000,"lift":"e2"}
{"t":330100,"place":"e4"}
{"t":330500,"input":"announced","ply":1}
{"t":661000,"input":"move","uci":"e7e5"}
{"t":661100,"input":"announced","ply":2}
{"t":662000,"lift":"e7"}
{"t":662200,"place":"e5"}"#,
    );
    // White had 15:10, so 10 minutes came 310 s in.
    // (The trace's end fires the timers still set: those after 662 s.)
    let during: Vec<_> = warnings(&ev)
        .into_iter()
        .filter(|w| w.0 <= 662_200)
        .collect();
    assert_eq!(during, [(310_000, "white".to_string())], "{ev:?}");
}
