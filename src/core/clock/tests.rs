use super::*;
use proptest::prelude::*;
use shakmaty::Color::{Black, White};

const MIN: u64 = 60_000;
const S: u64 = 1_000;

fn clock(human: &str) -> Clock {
    Clock::new(TimeControl::parse_human(human).unwrap())
}

#[test]
fn art_6_2_fischer_increment_is_added_after_each_move() {
    let mut c = clock("90+30");
    c.start(0, White);
    assert_eq!(
        c.press(10 * S, White, White),
        Press::Switched { new_period: false }
    );
    assert_eq!(c.remaining(10 * S, White), 90 * MIN - 10 * S + 30 * S);
    // Black's time runs now, White's stands.
    assert_eq!(c.remaining(70 * S, Black), 90 * MIN - 60 * S);
    assert_eq!(c.remaining(70 * S, White), 90 * MIN + 20 * S);
}

#[test]
fn art_6_2b_delay_main_time_untouched_when_stopped_within_the_delay() {
    let mut c = clock("5d3");
    c.start(0, White);
    // 2.999 s: inside the delay, the main time has not moved.
    assert_eq!(c.remaining(2_999, White), 5 * MIN);
    c.press(2_999, White, White);
    assert_eq!(c.remaining(2_999, White), 5 * MIN);
    // Black takes 10 s: 3 s of delay, then 7 s of main time.
    c.press(2_999 + 10 * S, Black, White);
    assert_eq!(c.remaining(20 * S, Black), 5 * MIN - 7 * S);
    // The delay is fresh for each move, and unused delay does not carry.
    assert_eq!(c.remaining(2_999 + 10 * S + 3 * S, White), 5 * MIN);
    assert_eq!(c.remaining(2_999 + 10 * S + 4 * S, White), 5 * MIN - S);
}

#[test]
fn art_6_2_bronstein_gives_back_the_time_used_up_to_the_delay() {
    let mut c = clock("5b3");
    c.start(0, White);
    // The main time runs at once…
    assert_eq!(c.remaining(2 * S, White), 5 * MIN - 2 * S);
    // …and a 2 s move gets 2 s back, a 10 s move 3 s.
    c.press(2 * S, White, White);
    assert_eq!(c.remaining(2 * S, White), 5 * MIN);
    c.press(12 * S, Black, White);
    assert_eq!(c.remaining(12 * S, Black), 5 * MIN - 7 * S);
}

#[test]
fn art_6_3_next_period_time_is_added_when_the_move_count_is_reached() {
    let mut c = clock("2/10,5+30");
    c.start(0, White);
    c.press(MIN, White, White);
    c.press(2 * MIN, Black, White);
    assert_eq!(
        c.press(3 * MIN, White, White),
        Press::Switched { new_period: true }
    );
    // 10 min − 2 × 1 min + 2 × 30 s, then 5 more minutes carried on top.
    assert_eq!(
        c.remaining(3 * MIN, White),
        10 * MIN - 2 * MIN + MIN + 5 * MIN
    );
    assert_eq!(c.face(3 * MIN).periods, ByColor { white: 2, black: 1 });
    assert_eq!(c.moves_to_control(White), None);
    assert_eq!(c.moves_to_control(Black), Some(1));
}

#[test]
fn art_6_1_flag_falls_to_the_millisecond() {
    let mut c = clock("1");
    c.start(500, White);
    assert_eq!(c.next_deadline(), Some(500 + MIN));
    assert_eq!(c.fire(500 + MIN - 1), None);
    assert_eq!(c.fire(500 + MIN + 7), Some(Signal::Flag(White)));
    assert_eq!(c.flag(White), Some(500 + MIN));
    assert_eq!(c.remaining(500 + MIN + 7, White), 0);
    // One flag per period: no second signal.
    assert_eq!(c.next_deadline(), None);
}

#[test]
fn art_6_2b_with_delay_the_flag_falls_after_the_delay() {
    let mut c = clock("1d5");
    c.start(0, White);
    assert_eq!(c.next_deadline(), Some(MIN + 5 * S));
}

#[test]
fn art_6_12_a_paused_clock_does_not_run() {
    let mut c = clock("10");
    c.start(0, White);
    assert!(c.pause(MIN));
    assert_eq!(c.remaining(5 * MIN, White), 9 * MIN);
    assert_eq!(c.next_deadline(), None);
    // A press while paused counts for nothing.
    assert_eq!(c.press(5 * MIN, White, White), Press::Ignored);
    assert!(c.resume(6 * MIN));
    assert_eq!(c.remaining(7 * MIN, White), 8 * MIN);
    assert_eq!(c.next_deadline(), Some(6 * MIN + 9 * MIN));
}

#[test]
fn art_6_7_a_press_by_the_player_whose_clock_stands_changes_nothing() {
    let mut c = clock("10");
    c.start(0, White);
    assert_eq!(c.press(S, Black, White), Press::Ignored);
    assert_eq!(c.running(), Some(White));
    assert_eq!(c.moves(Black), 0);
}

#[test]
fn starting_at_the_first_move_leaves_the_first_move_free() {
    let mut c = clock("10");
    assert_eq!(c.press(5 * S, Black, White), Press::Ignored);
    assert_eq!(c.press(7 * S, White, White), Press::Started);
    assert_eq!(c.running(), Some(Black));
    assert_eq!(c.remaining(7 * S, White), 10 * MIN);
    assert_eq!(c.remaining(9 * S, Black), 10 * MIN - 2 * S);
}

#[test]
fn with_both_first_moves_free_the_clock_starts_when_both_are_made() {
    // lichess's clock: no time runs, and no increment is given, until both
    // sides have made their first move.
    let mut c = clock("10+5").with_first_moves_free(true);
    assert_eq!(c.press(5 * S, White, White), Press::Ignored);
    assert_eq!(c.running(), None);
    assert_eq!(c.press(6 * S, White, White), Press::Ignored);
    assert_eq!(c.moves(White), 1);
    assert_eq!(c.press(65 * S, Black, White), Press::Started);
    assert_eq!(c.running(), Some(White));
    assert_eq!(c.remaining(65 * S, Black), 10 * MIN);
    assert_eq!(c.remaining(70 * S, White), 10 * MIN - 5 * S);
    assert_eq!(c.moves(Black), 1);
    assert!(matches!(
        c.press(70 * S, White, White),
        Press::Switched { .. }
    ));
    assert_eq!(c.remaining(70 * S, White), 10 * MIN);
}

#[test]
fn art_6_13_arbiter_sets_times_and_move_counter() {
    let mut c = clock("40/90,30");
    c.start(0, White);
    c.set_time(MIN, White, 12 * MIN);
    c.set_moves(MIN, White, 40);
    c.set_moves(MIN, Black, 39);
    assert_eq!(c.remaining(MIN, White), 12 * MIN);
    assert_eq!(c.remaining(2 * MIN, White), 11 * MIN);
    assert_eq!(c.face(MIN).periods, ByColor { white: 2, black: 1 });
    assert_eq!(c.moves_to_control(Black), Some(1));
}

#[test]
fn warnings_come_once_at_each_threshold_from_above() {
    let mut c = clock("2").with_warnings(
        &[MIN, 30 * S, 10 * MIN],
        ByColor {
            white: true,
            black: false,
        },
    );
    c.start(0, White);
    // 10 min is above the 2 min White starts with: never said.
    assert_eq!(c.next_deadline(), Some(MIN));
    assert_eq!(c.fire(MIN), Some(Signal::Warning(White, MIN)));
    assert_eq!(c.next_deadline(), Some(90 * S));
    c.press(80 * S, White, White);
    // Black is not warned: only its flag is a timer.
    assert_eq!(c.next_deadline(), Some(80 * S + 2 * MIN));
    c.press(81 * S, Black, White);
    assert_eq!(
        c.fire(81 * S + 10 * S),
        Some(Signal::Warning(White, 30 * S))
    );
}

#[test]
fn a_warning_comes_only_when_the_time_falls_past_it_from_well_above() {
    // 5+3, the increment given before each move: White starts with
    // 5:03. The 5-minute warning is no news 3 s into the game.
    let mut c = clock("5+3")
        .with_increment(IncrementTiming::Before)
        .with_warnings(&[5 * MIN, 10 * S], ByColor::new_with(|_| true));
    c.start(0, White);
    assert_eq!(c.remaining(0, White), 5 * MIN + 3 * S);
    // The first timer is the 10 s warning, 4:53 in.
    assert_eq!(c.next_deadline(), Some(5 * MIN + 3 * S - 10 * S));
    // White plays on quickly: his time goes past 6 minutes (well above
    // 5), and falling back past 5 minutes is then news.
    let mut t = 0;
    let mut mover = White;
    for _ in 0..60 {
        t += S;
        c.press(t, mover, White);
        mover = !mover;
    }
    assert!(c.remaining(t, White) > 6 * MIN, "{}", c.remaining(t, White));
    let due = c.next_deadline().expect("the warning");
    assert_eq!(c.fire(due), Some(Signal::Warning(mover, 5 * MIN)));
    // Around 10 s, the increments lift the time back above the mark:
    // warned once as it falls past (it stood well above before), not at
    // every move.
    c.set_time(due, mover, 12 * S);
    let mut t = due;
    // 4 s a move, 3 s back: the time sinks a second a move, from 12 s,
    // past 10 s and on.
    let warned = warnings_over(&mut c, &mut t, mover, 6);
    assert_eq!(warned, [10 * S], "once, not at every move");
    // Set to 12 s again, not well above 10 s: no news as it falls past.
    c.set_time(t, mover, 12 * S);
    assert_eq!(warnings_over(&mut c, &mut t, mover, 6), Vec::<u64>::new());
    // From 25 s (well above) down past 10 s: warned once.
    c.set_time(t, mover, 25 * S);
    assert_eq!(warnings_over(&mut c, &mut t, mover, 20).len(), 1);
}

/// `moves` moves of `mover`'s, 4 s each, 3 s back, each answered at once:
/// the warnings' marks given meanwhile.
fn warnings_over(c: &mut Clock, t: &mut u64, mover: Color, moves: usize) -> Vec<u64> {
    let mut warnings = Vec::new();
    for _ in 0..moves {
        *t += 4 * S;
        while let Some(d) = c.next_deadline().filter(|&d| d <= *t) {
            if let Some(Signal::Warning(_, ms)) = c.fire(d) {
                warnings.push(ms);
            }
        }
        c.press(*t, mover, White);
        *t += 10;
        c.press(*t, !mover, White);
    }
    warnings
}

#[test]
fn no_drift_over_eight_hours_of_one_ms_ticks() {
    // Eight simulated hours, the clock asked and its timers fired every
    // millisecond, moves pressed at irregular instants: the times stay
    // exact to the millisecond.
    let mut c = clock("240+30");
    c.start(0, White);
    let end = 8 * 60 * MIN;
    let mut presses = ByColor::<u64>::default();
    let mut used = ByColor::<u64>::default();
    let mut move_start = 0u64;
    let mut mover = White;
    let mut t = 0u64;
    let mut next_press = 37_123u64;
    while t < end {
        t += 1;
        let _ = c.fire(t);
        let _ = c.remaining(t, mover);
        if t == next_press {
            c.press(t, mover, White);
            *used.get_mut(mover) += t - move_start;
            *presses.get_mut(mover) += 1;
            move_start = t;
            mover = !mover;
            next_press = t + 10_007 + (t * 7919) % 160_000;
        }
    }
    for color in [White, Black] {
        let running = if color == mover { t - move_start } else { 0 };
        assert_eq!(
            c.remaining(t, color),
            240 * MIN + presses.get(color) * 30 * S - used.get(color) - running,
            "{color:?}"
        );
    }
}

proptest! {
    /// For random move times, time used plus time left equals the time
    /// given (periods reached, increments, Bronstein refunds) plus the
    /// delay time that spared the main time: exactly, in integer ms.
    #[test]
    fn time_used_plus_left_equals_time_given(
        kind in 0..3u8,
        bonus_s in 0..40u64,
        times in proptest::collection::vec(0..200_000u64, 1..120),
    ) {
        let bonus = match kind {
            0 => Bonus::Increment(bonus_s * S),
            1 => Bonus::Delay(bonus_s * S),
            _ => Bonus::Bronstein(bonus_s * S),
        };
        let periods = vec![
            Period { moves: Some(20), ms: 300 * MIN, bonus },
            Period { moves: None, ms: 60 * MIN, bonus },
        ];
        let control = TimeControl::new(periods).unwrap();
        let mut c = Clock::new(control.clone());
        c.start(0, White);
        let mut t = 0u64;
        let mut used = ByColor::<u64>::default();
        let mut given = ByColor::new_with(|_| 300 * MIN);
        let mut saved = ByColor::<u64>::default();
        let mut moves = ByColor::<u32>::default();
        let mut mover = White;
        for &dt in &times {
            t += dt;
            c.press(t, mover, White);
            *used.get_mut(mover) += dt;
            match bonus {
                Bonus::Increment(ms) => *given.get_mut(mover) += ms,
                Bonus::Bronstein(ms) => *given.get_mut(mover) += dt.min(ms),
                Bonus::Delay(ms) => *saved.get_mut(mover) += dt.min(ms),
                Bonus::None => {}
            }
            *moves.get_mut(mover) += 1;
            if *moves.get(mover) == 20 {
                *given.get_mut(mover) += 60 * MIN;
            }
            mover = !mover;
        }
        for color in [White, Black] {
            prop_assert_eq!(
                used.get(color) + c.remaining(t, color),
                given.get(color) + saved.get(color)
            );
        }
    }
}

#[test]
fn art_6_2_increment_before_each_move_shows_it_from_the_start() {
    let control = TimeControl::parse_pgn("40/5400+30:1800+30").unwrap();
    let mut before = Clock::new(control.clone()).with_increment(IncrementTiming::Before);
    let mut after = Clock::new(control);
    // The hall's clock shows 1:30:30 before the first move.
    assert_eq!(before.remaining(0, White), 90 * MIN + 30 * S);
    assert_eq!(before.remaining(0, Black), 90 * MIN + 30 * S);
    assert_eq!(after.remaining(0, White), 90 * MIN);
    before.start(0, White);
    after.start(0, White);
    // Forty moves each of 50 s to 70 s, across the control at move 40:
    // the same thinking, so "before" is exactly 30 s ahead at every press,
    // and both add the second period at the same press.
    let mut t = 0;
    let mut mover = White;
    for ply in 0..100u64 {
        t += 50 * S + (ply * 7919) % (20 * S);
        let b = before.press(t, mover, White);
        let a = after.press(t, mover, White);
        assert_eq!(a, b, "ply {ply}");
        for c in [White, Black] {
            assert_eq!(
                before.remaining(t, c),
                after.remaining(t, c) + 30 * S,
                "ply {ply}"
            );
        }
        mover = !mover;
    }
    assert_eq!(before.face(t).periods, ByColor { white: 2, black: 2 });
}

#[test]
fn extreme_settings_neither_wrap_nor_run_backwards() {
    let mut c = clock("1440+3600").with_increment(IncrementTiming::Before);
    c.start(900, White);
    // The arbiter sets an absurd time: it stops at the most a clock shows,
    // and the flag cannot fall before the setting.
    c.set_time(900, White, u64::MAX);
    assert_eq!(c.remaining(900, White), MAX_TIME_MS);
    assert_eq!(c.fire(900), None);
    assert!(c.next_deadline().is_some_and(|d| d > 900));
    c.add(1000, Black, u64::MAX);
    assert_eq!(c.remaining(1000, Black), MAX_TIME_MS);
    c.set_moves(1000, Black, u32::MAX);
    assert_eq!(c.moves(Black), MAX_MOVES);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any sequence of presses, pauses, settings, penalties and timers, at
    /// any instants and with any values a caller could pass, never panics
    /// (debug builds check every overflow), never shows more than
    /// [`MAX_TIME_MS`], and never fires a timer before the instant
    /// of the last thing that happened.
    #[test]
    fn any_operations_keep_the_clock_sane(
        control in prop_oneof![
            Just("1440+3600"), Just("1000/1440,1440+3600"), Just("1d3600"),
            Just("1b3600"), Just("0.001+0.001"), Just("1/1,1/1,1"),
        ],
        before in any::<bool>(),
        ops in proptest::collection::vec((0..8u8, any::<u64>(), any::<u64>()), 1..60),
    ) {
        let timing = if before { IncrementTiming::Before } else { IncrementTiming::After };
        let mut c = Clock::new(TimeControl::parse_human(control).unwrap()).with_increment(timing);
        let mut now = 0u64;
        for (op, dt, value) in ops {
            // Instants only go forward, by any amount up to 2^40 ms.
            now = now.saturating_add(dt >> 24);
            let color = if value & 1 == 0 { White } else { Black };
            match op {
                0 => c.start(now, color),
                1 => { c.press(now, color, White); }
                2 => { c.pause(now); }
                3 => { c.resume(now); }
                4 => c.set_time(now, color, value),
                5 => c.add(now, color, value),
                6 => c.set_moves(now, color, value as u32),
                _ => {
                    if let Some(d) = c.next_deadline() {
                        prop_assert!(d >= now || c.fire(now).is_some());
                    }
                    while let Some(d) = c.next_deadline().filter(|&d| d <= now) {
                        prop_assert!(c.fire(d).is_some());
                    }
                }
            }
            for side in [White, Black] {
                prop_assert!(c.remaining(now, side) <= MAX_TIME_MS);
            }
            if let Some(d) = c.next_deadline() {
                // A timer due now or later; a past one fires at once.
                prop_assert!(d >= now || c.clone().fire(now).is_some());
            }
        }
    }
}
