use super::*;
use crate::storm::{simulate, Spec};
use crate::Stop;

fn fixed_cell(outage_s: f64, headroom: f64, engine: Engine) -> Cell {
    cell(&Spec::article_fixed(), outage_s, headroom, engine).unwrap()
}

/// The article's storm (600/min, 30/s, 5 s timeout, fixed 30 s for 2 h): the cliff lies
/// between a 100 s outage and a 105 s one, in both engines.
#[test]
fn the_fixed_interval_recovers_from_100_s_and_collapses_after_105_s() {
    for engine in [Engine::Discrete, Engine::Fluid] {
        let short = fixed_cell(100.0, 3.0, engine);
        assert_eq!(short.outcome, Outcome::Recovers, "{engine:?}: {short:?}");
        assert!(short.recovery_s.unwrap() < 600.0, "{short:?}");
        let long = fixed_cell(105.0, 3.0, engine);
        assert_eq!(long.outcome, Outcome::Collapsed, "{engine:?}: {long:?}");
        assert!(long.goodput_vs_arrivals < 0.05, "{long:?}");
    }
}

/// Exponential 30 s ×3 capped at 3 h with full jitter after a 10 min outage: 35/s of
/// capacity (3.5× headroom) recovers, 33/s collapses (discrete engine).
#[test]
fn a_ten_minute_outage_needs_about_35_per_second_under_backoff_with_jitter() {
    let backoff = Spec {
        policy: Policy::new(30.0, 3.0, 10_800.0, Stop::GiveUpAfter(86_400.0)).unwrap(),
        jitter: Jitter::Full,
        ..Spec::article_fixed()
    };
    let at = |capacity: f64| cell(&backoff, 600.0, capacity / 10.0, Engine::Discrete).unwrap();
    assert_eq!(at(35.0).outcome, Outcome::Recovers, "{:?}", at(35.0));
    assert_eq!(at(33.0).outcome, Outcome::Collapsed, "{:?}", at(33.0));
}

/// A map's cells are the storms `backoff-lab storm` runs for the same scenario, classified:
/// stopping each at the end of its recovery window changes no outcome and no recovery time.
/// The second grid has cells that drain 30 to 60 minutes after their outage, so that a window
/// cut short would show.
#[test]
fn map_cells_agree_with_direct_storm_runs_to_their_end() {
    let backoff = Spec {
        policy: Policy::new(30.0, 3.0, 10_800.0, Stop::GiveUpAfter(86_400.0)).unwrap(),
        jitter: Jitter::Full,
        ..Spec::article_fixed()
    };
    let mut outcomes = std::collections::BTreeSet::new();
    let mut late_recoveries = 0;
    for axes in [
        Axes::new((30.0, 7_200.0), (1.5, 8.0), (6, 4)).unwrap(),
        Axes::new((600.0, 900.0), (4.0, 8.0), (2, 2)).unwrap(),
    ] {
        late_recoveries += agree_to_their_end(&backoff, &axes, &mut outcomes);
    }
    assert_eq!(outcomes.len(), 3, "every outcome occurs: {outcomes:?}");
    assert!(
        late_recoveries > 0,
        "no cell drains 30 to 60 min after its outage"
    );
}

/// Checks every cell of the map of `backoff` over `axes` against its storm run to its end;
/// returns how many recovered 30 to 60 minutes after their outage.
fn agree_to_their_end(
    backoff: &Spec,
    axes: &Axes,
    outcomes: &mut std::collections::BTreeSet<&'static str>,
) -> usize {
    let map = survival_map(backoff, axes, Engine::Fluid).unwrap();
    let specs = series_specs(backoff).unwrap();
    let mut late_recoveries = 0;
    for (series, (label, spec)) in map.series.iter().zip(&specs) {
        assert_eq!(&series.label, label);
        for (row, &headroom) in series.cells.iter().zip(&map.headroom) {
            for (got, &outage) in row.iter().zip(&map.outages_s) {
                let storm = Spec {
                    outage: (0, outage as u32),
                    capacity_per_s: 10.0 * headroom,
                    traffic_s: outage as u32 + 3_600,
                    ..*spec
                };
                let whole = simulate(&Scenario::new(storm).unwrap(), Engine::Fluid, false).unwrap();
                let direct = classify(&storm, &whole);
                let at = format!("{label} at {headroom}×, {outage} s");
                assert_eq!(got.outcome, direct.outcome, "{at}");
                assert_eq!(got.recovery_s, direct.recovery_s, "{at}");
                outcomes.insert(got.outcome.name());
                late_recoveries += usize::from(
                    direct
                        .recovery_s
                        .is_some_and(|s| (1_800.0..=3_600.0).contains(&s)),
                );
            }
        }
    }
    late_recoveries
}

/// "Within the hour" is the hour's 3,600 seconds: a backlog drained at the end of second
/// `E + 3599` recovers, one drained at the end of second `E + 3600` does not, in the map (which
/// stops at the window's end) and in a storm run to its end alike. At 1/s paused through the
/// outage and resumed at 2/s, an outage of `L` seconds drains `L − 8` seconds after it.
#[test]
fn a_backlog_drained_in_the_second_after_the_hour_is_slow_in_the_map_and_the_storm() {
    let paused = Spec {
        arrivals_per_s: 1.0,
        bounds: crate::storm::Bounds {
            pause: true,
            resume_rate_per_s: Some(2.0),
            ..Default::default()
        },
        ..Spec::article_fixed()
    };
    for (outage, recovery_s) in [(3_607, Some(3_600.0)), (3_608, None)] {
        let storm = cell_spec(&paused, f64::from(outage), 3.0);
        let whole = simulate(&Scenario::new(storm).unwrap(), Engine::Discrete, false).unwrap();
        assert_eq!(
            whole.summary.drained_at_s,
            Some(2 * outage - 8),
            "{outage} s"
        );
        let in_map = cell(&paused, f64::from(outage), 3.0, Engine::Discrete).unwrap();
        assert_eq!(in_map.recovery_s, recovery_s, "{outage} s");
        let direct = classify(&storm, &whole);
        assert_eq!(
            (direct.outcome, direct.recovery_s),
            (in_map.outcome, recovery_s),
            "{outage} s"
        );
    }
}

#[test]
fn the_boundary_is_the_last_outage_before_the_first_collapse() {
    let c = |outcome| Cell {
        outcome,
        recovery_s: None,
        exhausted_share: 0.0,
        peak_multiple: None,
        goodput_vs_arrivals: 1.0,
    };
    let outages = [10.0, 20.0, 40.0, 80.0];
    use Outcome::*;
    assert_eq!(
        boundary(&[c(Recovers), c(Slow), c(Collapsed), c(Recovers)], &outages),
        Some(20.0)
    );
    assert_eq!(
        boundary(
            &[c(Collapsed), c(Recovers), c(Recovers), c(Recovers)],
            &outages
        ),
        None
    );
    assert_eq!(boundary(&[c(Recovers); 4], &outages), Some(80.0));
}

#[test]
fn more_headroom_never_moves_the_fixed_interval_cliff_shorter() {
    let axes = Axes::new((30.0, 7_200.0), (1.2, 12.0), (8, 5)).unwrap();
    let map = survival_map(&Spec::article_fixed(), &axes, Engine::Fluid).unwrap();
    let fixed = &map.series[1];
    let reach = |b: Option<f64>| b.unwrap_or(0.0);
    for pair in fixed.boundary.windows(2) {
        assert!(reach(pair[1]) >= reach(pair[0]), "{:?}", fixed.boundary);
    }
    assert!(map.caption.starts_with("Your scenario "), "{}", map.caption);
}

/// A fluid map of a schedule too long for the engine's histories or work names `attempts` with
/// the most its cells take, on every engine setting that maps on the fluid engine: the map's
/// work limit said "fewer steps" of a 2×2 map, and the cells "the discrete engine", whose limit
/// refused it too (outside review). The count given is the most: one more is refused, and a
/// map of it is planned and its cells checked, and a lowest row too slow for the engine changes
/// neither. The second policy meets the class-seconds first and the history cells sooner.
#[test]
fn a_fluid_map_of_too_many_attempts_names_attempts_and_the_most_it_takes() {
    let small = Axes::new((1.0, 2.0), (2.0, 8.0), (2, 2)).unwrap();
    for (base, multiplier, cap, limit) in [
        (30.0, 3.0, 10_800.0, "class-seconds"),
        (1.0, 2.0, 7.0 * 86_400.0, "history cells"),
    ] {
        let with = |attempts: u32| Spec {
            policy: Policy::new(base, multiplier, cap, Stop::Attempts(attempts)).unwrap(),
            jitter: Jitter::Full,
            ..Spec::article_fixed()
        };
        for engine in [Engine::Fluid, Engine::Auto] {
            let refused = Plan::new(&with(3_000), small.clone(), engine).unwrap_err();
            let Error::OutOfRange { field, valid, .. } = &refused else {
                panic!("{refused}")
            };
            assert_eq!(*field, "attempts", "{refused}");
            assert!(valid.contains(limit), "{refused}");
            let most: u32 = valid
                .strip_prefix("at most ")
                .and_then(|rest| rest.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("no count: {refused}"));
            // What one more attempt does, with its count said once ("with 14 attempts its
            // cells are for 14 attempts with …" read twice).
            let past = "which its cells pass at one attempt more (";
            assert!(valid.contains(past), "{refused}");
            assert_eq!(
                valid.matches(&format!("{} attempts", most + 1)).count(),
                1,
                "{refused}"
            );
            let most: u32 = valid
                .strip_prefix("at most ")
                .and_then(|rest| rest.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("no count: {refused}"));
            let plan = Plan::new(&with(most), small.clone(), engine).unwrap();
            plan.check_cells().unwrap();
            let one_more = Plan::new(&with(most + 1), small.clone(), engine).unwrap_err();
            assert!(
                one_more
                    .to_string()
                    .starts_with(&format!("attempts must be at most {most} ")),
                "{one_more}"
            );
            // A lowest row too slow for the engine (0.1×: 5 requests within the timeout)
            // does not hide the attempts, nor change the most.
            let too_slow = Axes::new((1.0, 2.0), (0.1, 8.0), (2, 2)).unwrap();
            let told = Plan::new(&with(3_000), too_slow, engine).unwrap_err();
            assert!(
                told.to_string()
                    .starts_with(&format!("attempts must be at most {most} ")),
                "{told}"
            );
        }
    }
}

/// A discrete map of decorrelated jitter over its limit is told the ways that exist: it read
/// "… or the fluid engine", which refuses decorrelated jitter ("engine must be discrete here").
#[test]
fn a_discrete_map_of_decorrelated_jitter_is_not_sent_to_the_fluid_engine() {
    let decorrelated = Spec {
        jitter: Jitter::Decorrelated,
        ..Spec::article_fixed()
    };
    let small = Axes::new((10.0, 120.0), (2.0, 8.0), (2, 2)).unwrap();
    let plan = Plan::new(&decorrelated, small, Engine::Discrete).unwrap();
    assert_eq!(plan.engine, Engine::Discrete);
    let default = Axes::new((10.0, 86_400.0), (1.05, 20.0), (24, 16)).unwrap();
    let refused = |spec: &Spec| {
        Plan::new(spec, default.clone(), Engine::Discrete)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    let told = refused(&decorrelated);
    assert!(
        told.starts_with("steps must be at most 200,000,000 delivery-attempts")
            && told.contains(
                "fewer steps, shorter outages or fewer attempts (the fluid engine cannot run decorrelated jitter)"
            ),
        "{told}"
    );
    let fixed = refused(&Spec::article_fixed());
    assert!(fixed.contains("or the fluid engine"), "{fixed}");
}

#[test]
fn a_map_beyond_its_work_limit_is_refused_before_it_starts() {
    let axes = Axes::new((10.0, 86_400.0), (1.05, 20.0), (24, 16)).unwrap();
    let refused = survival_map(&Spec::article_fixed(), &axes, Engine::Discrete)
        .unwrap_err()
        .to_string();
    assert!(
        refused.starts_with("steps must be at most 200,000,000 "),
        "{refused}"
    );
    let week = Spec {
        policy: Policy::fixed(10.0, Stop::GiveUpAfter(86_400.0)).unwrap(),
        ..Spec::article_fixed()
    };
    let refused = survival_map(&week, &axes, Engine::Fluid)
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("at most 5,000,000,000 attempt-seconds"),
        "{refused}"
    );
}

/// A discrete map over its work limit even at the smallest axes (2×2 steps of 1 s and 2 s)
/// names the arrival rate, with the most it takes, which runs as quoted; a 2×2 map that
/// shorter outages bring under names `outages`: "fewer steps" was all it said to a 2×2 map
/// (outside review). A larger map the axes can bring under still names `steps`.
#[test]
fn a_discrete_map_no_steps_bring_under_its_limit_names_what_does() {
    let small = Axes::new((10.0, 60.0), (2.0, 8.0), (2, 2)).unwrap();
    let at = |arrivals_per_s: f64| Spec {
        arrivals_per_s,
        capacity_per_s: 3.0 * arrivals_per_s,
        ..Spec::article_fixed()
    };
    let refused = Plan::new(&at(1_000.0), small.clone(), Engine::Discrete).unwrap_err();
    let Error::OutOfRange { field, valid, .. } = &refused else {
        panic!("{refused}")
    };
    assert_eq!(*field, "arrivals", "{refused}");
    assert!(!valid.contains("fewer steps"), "{refused}");
    let most: f64 = valid
        .strip_prefix("at most ")
        .and_then(|rest| rest.split("/s").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no rate: {refused}"));
    assert!(Plan::new(&at(most), small.clone(), Engine::Discrete).is_ok());
    assert!(Plan::new(&at(most * 1.000_01), small.clone(), Engine::Discrete).is_err());
    // The default 24 h end of the outage axis on 2×2 steps: shorter outages are the way.
    let long = Axes::new((10.0, 86_400.0), (2.0, 8.0), (2, 2)).unwrap();
    let told = Plan::new(&Spec::article_fixed(), long, Engine::Discrete).unwrap_err();
    assert!(
        told.to_string()
            .starts_with("outages must be shorter for this map on the discrete engine"),
        "{told}"
    );
    let default = Axes::new((10.0, 86_400.0), (1.05, 20.0), (24, 16)).unwrap();
    let told = Plan::new(&Spec::article_fixed(), default, Engine::Discrete).unwrap_err();
    assert!(told.to_string().starts_with("steps must be "), "{told}");
}

/// A cell the fluid engine cannot represent (a destination too slow at 0.1× headroom) is found
/// before any row runs: in the CLI, a row computed last held the refusal until the other rows
/// had run on every core (17 s, from an outside tester). The refusal is the one the rows
/// computed one after another give.
#[test]
fn a_cell_the_fluid_engine_cannot_run_refuses_the_plan() {
    let axes = Axes::new((10.0, 86_400.0), (0.1, 5.0), (8, 4)).unwrap();
    let plan = Plan::new(&Spec::article_fixed(), axes.clone(), Engine::Fluid).unwrap();
    let refused = plan.check_cells().unwrap_err().to_string();
    // The cell is named: the map's axes, not a flag given, decided it; the axis is quoted as
    // given and the failing row as a row (its 0.37× read as the axis' low end, 0.1×).
    assert!(
        refused.contains("got 0.1..5, whose row at 0.37× answers 18.2 requests within its limits"),
        "{refused}"
    );
    // The least headroom at which every cell runs, not the failing row.
    assert!(refused.contains("at least 0.41× here"), "{refused}");
    // The ends as given, ungrouped: "0.1..1,000" was refused typed back (outside review).
    let wide = Axes::new((10.0, 86_400.0), (0.1, 1_000.0), (8, 4)).unwrap();
    let wide = Plan::new(&Spec::article_fixed(), wide, Engine::Fluid).unwrap();
    let told = wide.check_cells().unwrap_err().to_string();
    assert!(told.contains("got 0.1..1000, whose row at"), "{told}");
    assert!(
        refused.starts_with("headroom must be a low end at which the fluid engine runs every cell"),
        "{refused}"
    );
    let serial = survival_map(&Spec::article_fixed(), &axes, Engine::Fluid).unwrap_err();
    assert_eq!(serial.to_string(), refused);
}

/// A batch would be dropped from every cell (each is steady traffic through its outage), so a
/// map of a scenario with one is refused, naming the field, on every engine.
#[test]
fn a_map_of_a_scenario_with_a_batch_is_refused() {
    let axes = Axes::new((60.0, 900.0), (1.3, 3.0), (3, 2)).unwrap();
    let batched = Spec {
        batch: Some((3_000, 300)),
        ..Spec::article_fixed()
    };
    for engine in [Engine::Fluid, Engine::Discrete, Engine::Auto] {
        let refused = survival_map(&batched, &axes, engine)
            .unwrap_err()
            .to_string();
        assert!(
            refused.starts_with("batch must be empty for a survival map"),
            "{refused}"
        );
        assert!(refused.ends_with("got 3000 at 300 s"), "{refused}");
    }
    assert!(survival_map(&Spec::article_fixed(), &axes, Engine::Fluid).is_ok());
}

/// A map assembled from its rows in any order, some given twice, is the map; rows left out
/// are empty and counted as pending, and the caption says how far it got.
#[test]
fn a_map_is_its_rows_in_any_order_and_a_partial_map_says_so() {
    let yours = not_the_comparison();
    let axes = Axes::new((30.0, 1_800.0), (1.5, 6.0), (4, 3)).unwrap();
    let plan = Plan::new(&yours, axes.clone(), Engine::Fluid).unwrap();
    let jobs = plan.rows();
    assert_eq!(jobs.len(), 3 * 3);
    assert_eq!(
        jobs[0],
        (0, 1),
        "the headroom nearest the scenario's 3× comes first"
    );
    let mut rows: Vec<Row> = jobs
        .iter()
        .flat_map(|&(s, h)| plan.rows_of(s, &[h]).unwrap())
        .collect();
    let whole = survival_map(&yours, &axes, Engine::Fluid).unwrap();
    rows.reverse();
    rows.push(rows[0].clone());
    assert_eq!(plan.map(&rows).unwrap(), whole);
    assert_eq!(whole.rows_pending, 0);

    let partial = plan.map(&rows[..4]).unwrap();
    assert_eq!(partial.rows_pending, 5);
    assert_eq!(
        partial.caption,
        "Computing the survival map: 4 of 9 rows done."
    );
    let filled: usize = partial
        .series
        .iter()
        .flat_map(|s| &s.cells)
        .filter(|r| !r.is_empty())
        .count();
    assert_eq!(filled, 4);

    let mut stray = rows[0].clone();
    stray.headroom = 3;
    assert!(plan
        .map(&[stray])
        .unwrap_err()
        .to_string()
        .starts_with("row must be"));
    for (series, headrooms) in [(3, vec![0]), (0, vec![1, 3]), (3, vec![])] {
        assert!(plan
            .rows_of(series, &headrooms)
            .unwrap_err()
            .to_string()
            .starts_with("row must be"));
    }
}

/// The pieces for any number of workers hold every row once, each series in as many pieces as
/// workers (one row a piece without workers), each piece consecutive rows of the plan's order,
/// every series' first piece first; computed piece by piece they make the map.
#[test]
fn pieces_hold_every_row_once_in_the_plans_order() {
    let yours = not_the_comparison();
    let axes = Axes::new((30.0, 1_800.0), (1.5, 6.0), (4, 5)).unwrap();
    let plan = Plan::new(&yours, axes.clone(), Engine::Fluid).unwrap();
    let order = plan.rows();
    for (workers, per_series) in [(0, 5), (1, 1), (2, 2), (3, 3), (8, 5)] {
        let pieces = plan.pieces(workers);
        assert_eq!(pieces.len(), 3 * per_series, "{workers} workers");
        assert_eq!(
            pieces.iter().take(3).map(|p| p.0).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        let sizes: Vec<usize> = pieces.iter().map(|p| p.1.len()).collect();
        assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        for series in 0..3 {
            let rows: Vec<(usize, usize)> = pieces
                .iter()
                .filter(|p| p.0 == series)
                .flat_map(|(s, headrooms)| headrooms.iter().map(move |&h| (*s, h)))
                .collect();
            assert_eq!(
                rows,
                order[series * 5..(series + 1) * 5],
                "{workers} workers"
            );
        }
    }
    let rows: Vec<Row> = plan
        .pieces(2)
        .iter()
        .flat_map(|(series, headrooms)| plan.rows_of(*series, headrooms).unwrap())
        .collect();
    assert_eq!(
        plan.map(&rows).unwrap(),
        survival_map(&yours, &axes, Engine::Fluid).unwrap()
    );
}

/// The article's fixed 30 s storm with one attempt fewer than the map's fixed 30 s comparison:
/// three series, each computed.
fn not_the_comparison() -> Spec {
    Spec {
        policy: crate::Policy::fixed(30.0, crate::Stop::Attempts(240)).unwrap(),
        ..Spec::article_fixed()
    }
}

/// When your policy is the fixed 30 s comparison, that series is computed once and shown twice:
/// its rows are not asked for again, and the map's second series is what computing it gives.
#[test]
fn a_series_alike_an_earlier_one_is_computed_once_and_shown_twice() {
    let yours = Spec {
        policy: crate::Policy::article_storm(),
        jitter: crate::jitter::Jitter::None,
        ..Spec::article_fixed()
    };
    let axes = Axes::new((30.0, 1_800.0), (1.5, 6.0), (4, 3)).unwrap();
    let plan = Plan::new(&yours, axes.clone(), Engine::Fluid).unwrap();
    assert_eq!(
        plan.series[0].1, plan.series[1].1,
        "your policy is the comparison"
    );
    assert!(plan.rows().iter().all(|&(series, _)| series != 1));
    assert_eq!(plan.rows().len(), 2 * 3);
    assert!(plan.pieces(2).iter().all(|(series, _)| *series != 1));

    let map = survival_map(&yours, &axes, Engine::Fluid).unwrap();
    assert_eq!(map.rows_pending, 0);
    assert_eq!(map.series[1].label, "fixed 30 s");
    let computed: Vec<Vec<Cell>> = plan
        .rows_of(1, &[0, 1, 2])
        .unwrap()
        .into_iter()
        .map(|row| row.cells)
        .collect();
    assert_eq!(map.series[1].cells, computed);
    assert_eq!(map.series[1].cells, map.series[0].cells);
}

/// Your scenario's own cell is your policy's cell at exactly its outage and headroom, carried by
/// your policy's row nearest its headroom alone, whichever way the rows are split; the map and
/// its caption give its outcome.
#[test]
fn the_scenarios_own_cell_rides_with_the_nearest_row_of_your_policy() {
    let axes = Axes::new((30.0, 1_800.0), (1.5, 6.0), (4, 3)).unwrap();
    let yours = Spec::article_fixed();
    let plan = Plan::new(&yours, axes.clone(), Engine::Fluid).unwrap();
    let own = cell(&yours, 600.0, 3.0, Engine::Fluid).unwrap();
    for workers in [0, 1, 2] {
        let rows: Vec<Row> = plan
            .pieces(workers)
            .iter()
            .flat_map(|(series, headrooms)| plan.rows_of(*series, headrooms).unwrap())
            .collect();
        let carriers: Vec<(usize, usize)> = rows
            .iter()
            .filter(|row| row.scenario.is_some())
            .map(|row| (row.series, row.headroom))
            .collect();
        assert_eq!(carriers, vec![(0, 1)], "{workers} workers");
        assert_eq!(plan.map(&rows).unwrap().scenario, Some(own));
    }
    let map = survival_map(&yours, &axes, Engine::Fluid).unwrap();
    assert_eq!(map.scenario, Some(own));
    assert_eq!(own.outcome, Outcome::Collapsed, "{own:?}");
    assert!(
        map.caption
            .starts_with("Your scenario (an outage of 10 min at 3.00× headroom) collapses: "),
        "{}",
        map.caption
    );
    // The partial map has it as soon as that row is in, and no other row brings it.
    let first = plan.rows_of(0, &[1]).unwrap();
    assert_eq!(plan.map(&first).unwrap().scenario, Some(own));
    assert_eq!(
        plan.map(&plan.rows_of(0, &[0, 2]).unwrap())
            .unwrap()
            .scenario,
        None
    );
    assert_eq!(plan.rows_of(1, &[1]).unwrap()[0].scenario, None);
}

/// The caption says whether its row is your headroom or only the nearest row of the grid.
#[test]
fn the_caption_names_its_row_as_yours_or_as_the_nearest() {
    let yours = Spec::article_fixed();
    let on_the_grid = Axes::new((30.0, 1_800.0), (1.5, 6.0), (4, 3)).unwrap();
    let map = survival_map(&yours, &on_the_grid, Engine::Fluid).unwrap();
    assert!(
        map.caption
            .contains(" At 3.00× headroom (capacity ÷ arrivals), your scenario's row of the map, "),
        "{}",
        map.caption
    );
    let off_the_grid = Axes::new((30.0, 1_800.0), (1.5, 8.0), (4, 3)).unwrap();
    let map = survival_map(&yours, &off_the_grid, Engine::Fluid).unwrap();
    assert!(
        map.caption.contains(
            " At 3.46× headroom (capacity ÷ arrivals), the map's row nearest your 3.00×, your policy "
        ),
        "{}",
        map.caption
    );
}

/// A scenario whose outage ends too late for a recovery window within the storm's horizon has
/// no own cell, and the caption says why; the map itself is computed.
#[test]
fn a_scenario_too_long_for_a_recovery_window_has_no_own_cell() {
    let yours = Spec {
        outage: (0, 7 * 86_400 - 1_800),
        traffic_s: 7 * 86_400,
        ..Spec::article_fixed()
    };
    let axes = Axes::new((30.0, 120.0), (2.0, 4.0), (2, 2)).unwrap();
    let map = survival_map(&yours, &axes, Engine::Fluid).unwrap();
    assert_eq!(map.scenario, None);
    assert!(
        map.caption.starts_with("Your scenario (an outage of ")
            && map.caption.contains(
                "is not a cell of the map: its outage ends later than 7 days less the 1 h recovery window."
            ),
        "{}",
        map.caption
    );
}

/// A scenario that recovers after most of its outage's deliveries ran out of attempts during
/// the outage says so (a fixed 30 s interval of 3 attempts: 13% of all deliveries exhausted, the
/// caption read only "its backlog is delivered 34 s after the outage ends").
#[test]
fn a_recovery_after_exhaustion_names_the_exhausted_share() {
    let yours = Spec {
        policy: crate::Policy::fixed(30.0, crate::Stop::Attempts(3)).unwrap(),
        ..Spec::article_fixed()
    };
    let axes = Axes::new((10.0, 60.0), (1.05, 20.0), (2, 2)).unwrap();
    let map = survival_map(&yours, &axes, Engine::Fluid).unwrap();
    let own = map.scenario.unwrap();
    assert_eq!(own.outcome, Outcome::Recovers);
    assert!(own.exhausted_share > 0.1, "{own:?}");
    assert!(
        map.caption.starts_with(
            "Your scenario (an outage of 10 min at 3.00× headroom) recovers: what is left of its \
             backlog is delivered 35 s after the outage ends, but 13% of its deliveries ran out \
             of attempts (kept for a replay)."
        ),
        "{}",
        map.caption
    );
}

/// A scenario whose destination is too slow for the fluid engine (3/s × 4.95 s answers 14.9
/// requests within its limits, under 20) was refused by a fluid map, and the discrete engine's
/// advice then refused the map for its size: no map at all. The grid's cells are fluid; your
/// own cell runs delivery by delivery, as the `auto` engine does it.
#[test]
fn a_scenario_too_slow_for_the_fluid_engine_still_gets_its_map() {
    let slow = Spec {
        capacity_per_s: 3.0,
        ..Spec::article_fixed()
    };
    let axes = Axes::new((60.0, 900.0), (1.3, 3.0), (3, 2)).unwrap();
    let refused = simulate(
        &crate::storm::Scenario::new(slow).unwrap(),
        Engine::Fluid,
        false,
    );
    assert!(
        refused.is_err(),
        "the fluid engine refuses this destination"
    );
    let map = survival_map(&slow, &axes, Engine::Fluid).unwrap();
    let own = cell_spec(&slow, 600.0, 0.3);
    let discrete = run_cell(&own, Engine::Discrete).unwrap();
    assert_eq!(map.scenario, Some(discrete));
}
