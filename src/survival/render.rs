//! The map in words, as a table and as CSV.

use super::{Axes, Cell, Outcome, Series, SurvivalMap};
use crate::format_duration;

/// The index of the headroom nearest `current` on a log axis.
pub(super) fn nearest(headroom: &[f64], current: f64) -> usize {
    let distance = |h: f64| (h.ln() - current.ln()).abs();
    (0..headroom.len())
        .min_by(|&a, &b| distance(headroom[a]).total_cmp(&distance(headroom[b])))
        .unwrap_or(0)
}

/// A series' boundary in words, from its row of cells (empty while not computed): surviving
/// includes slow cells, so the first outage whose backlog outlasts the hour is named too.
fn survives(boundary: Option<f64>, row: &[Cell], outages_s: &[f64]) -> String {
    let Some(b) = boundary else {
        return format!(
            "collapses even after {} outage",
            crate::duration::with_article(&format_duration(outages_s[0]))
        );
    };
    let up_to = if Some(&b) == outages_s.last() {
        format!("survives every outage up to {}", format_duration(b))
    } else {
        format!("survives outages up to {}", format_duration(b))
    };
    let survived = || {
        row.iter()
            .zip(outages_s)
            .take_while(|&(_, &outage)| outage <= b)
    };
    let slowly = match survived().find(|(cell, _)| cell.outcome == Outcome::Slow) {
        Some((_, &outage)) => format!(
            "{up_to}, slowly from {} (its backlog outlasts the hour)",
            format_duration(outage)
        ),
        None => up_to,
    };
    // A destination that recovers because most deliveries ran out of attempts during the
    // outage "survives" it at their expense: said (outside SRE review: AWS SNS's 24 h outage
    // read "survives" with 96% of its deliveries exhausted).
    match survived().find(|(cell, _)| cell.mostly_exhausted()) {
        Some((cell, &outage)) => format!(
            "{slowly}, though from {} most deliveries run out of attempts ({} exhausted)",
            format_duration(outage),
            crate::report::most_percent(cell.exhausted_share * 100.0)
        ),
        None => slowly,
    }
}

/// Your scenario's own cell as the caption knows it: the cell, when computed, and whether it
/// can be (see the module's rules).
pub(super) struct Own<'a> {
    pub cell: Option<&'a Cell>,
    pub computable: bool,
}

/// A share of the arrival rate as a percentage, written as the storm's caption writes its
/// goodput (the same storm read "1%" there and "0.8%" here).
fn percent(share: f64) -> String {
    crate::report::whole_percent(share * 100.0)
}

/// "Your scenario (an outage of 10 min at 3.00× headroom) collapses: …": the outcome of your
/// scenario's own cell, which the grid's nearest cell need not share; `None` when the map has
/// no own cell though one could be computed (rows given without it).
fn own_sentence((outage, headroom): (f64, f64), own: &Own<'_>) -> Option<String> {
    let what = format!(
        "Your scenario (an outage of {} at {headroom:.2}× headroom)",
        format_duration(outage)
    );
    let Some(cell) = own.cell else {
        return (!own.computable).then(|| {
            format!(
                "{what} is not a cell of the map: its outage ends later than 7 days less the \
                 1 h recovery window."
            )
        });
    };
    Some(match cell.outcome {
        // A backlog delivered can be what was left after most of it ran out of attempts during
        // the outage (exhaustion then does not count against recovering): said, as a share.
        Outcome::Recovers if cell.exhausted_share > 0.0 => format!(
            "{what} recovers: what is left of its backlog is delivered {} after the outage ends, \
             but {} of its deliveries ran out of attempts (kept for a replay).",
            format_duration(cell.recovery_s.unwrap_or(0.0)),
            crate::report::whole_percent(cell.exhausted_share * 100.0)
        ),
        Outcome::Recovers => format!(
            "{what} recovers: its backlog is delivered {} after the outage ends.",
            format_duration(cell.recovery_s.unwrap_or(0.0))
        ),
        // Exhaustion can clear a backlog before delivery does (the storm's caption then says
        // "gone … partly because deliveries ran out of attempts"): "not delivered" alone read
        // as a backlog still waiting an hour later.
        Outcome::Slow if cell.exhausted_share > 0.0 => format!(
            "{what} recovers slowly: its backlog is not cleared by delivery alone within 1 h of \
             the outage's end ({} of its deliveries ran out of attempts, kept for a replay), \
             though goodput in that hour is {} of the arrival rate.",
            crate::report::whole_percent(cell.exhausted_share * 100.0),
            percent(cell.goodput_vs_arrivals)
        ),
        Outcome::Slow => format!(
            "{what} recovers slowly: its backlog is not delivered within 1 h of the outage's \
             end, though goodput in that hour is {} of the arrival rate.",
            percent(cell.goodput_vs_arrivals)
        ),
        Outcome::Collapsed => format!(
            "{what} collapses: goodput in the hour after the outage is {} of the arrival rate.",
            percent(cell.goodput_vs_arrivals)
        ),
    })
}

/// Whether a row's `headroom` is the scenario's `current` one (the axis' last value is
/// computed, so equal up to a rounding error).
fn same_headroom(headroom: f64, current: f64) -> bool {
    (headroom / current - 1.0).abs() < 1e-9
}

/// The caption of a whole map: your scenario's own outcome, then each series' boundary at the
/// grid row nearest your headroom ("At 3.41× headroom (capacity ÷ arrivals), the map's row
/// nearest your 3.00×, your policy survives outages up to 8.1 min; fixed 30 s …"), then the
/// rules.
pub(super) fn caption(axes: &Axes, current: (f64, f64), own: Own<'_>, series: &[Series]) -> String {
    let at = nearest(&axes.headroom, current.1);
    let parts: Vec<String> = series
        .iter()
        .map(|s| {
            let row = s.cells.get(at).map_or(&[][..], Vec::as_slice);
            format!(
                "{} {}",
                s.label,
                survives(s.boundary[at], row, &axes.outages_s)
            )
        })
        .collect();
    let row = if same_headroom(axes.headroom[at], current.1) {
        "your scenario's row of the map".to_string()
    } else {
        format!("the map's row nearest your {:.2}×", current.1)
    };
    let rows = format!(
        "At {:.2}× headroom (capacity ÷ arrivals), {row}, {}. A cell recovers when its backlog \
         is delivered within 1 h of the outage's end, and collapses when goodput in that hour \
         stays below half the arrival rate.",
        axes.headroom[at],
        parts.join("; ")
    );
    match own_sentence(current, &own) {
        Some(sentence) => format!("{sentence} {rows}"),
        None => rows,
    }
}

fn letter(outcome: Outcome) -> char {
    match outcome {
        Outcome::Recovers => '.',
        Outcome::Slow => 's',
        Outcome::Collapsed => 'X',
    }
}

impl SurvivalMap {
    /// Each series as a grid of letters (`.` recovers, `s` slow, `X` collapsed), headroom
    /// rows from the largest down, with its boundary, then the caption.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        for series in &self.series {
            out += &format!("{}\n", series.label);
            for (i, row) in series.cells.iter().enumerate().rev() {
                let cells: String = row.iter().map(|c| letter(c.outcome)).collect();
                let boundary = series.boundary[i]
                    .map_or("collapses from the shortest outage".into(), |s| {
                        format!("survives up to {}", format_duration(s))
                    });
                out += &format!("  {:>8.2}×  {cells}  {boundary}\n", self.headroom[i]);
            }
            out += &format!(
                "  outages    {} … {}\n\n",
                format_duration(self.outages_s[0]),
                format_duration(*self.outages_s.last().unwrap_or(&0.0))
            );
        }
        out += "`.` recovers, `s` recovers slowly, `X` collapsed.\n";
        out += &self.caption;
        out.push('\n');
        out
    }

    /// One line per cell of every series.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "series,headroom,outage_s,outcome,recovery_s,exhausted_share,peak_multiple,goodput_vs_arrivals\n",
        );
        let number = crate::report::csv_number;
        let optional = |v: Option<f64>| v.map_or(String::new(), number);
        for series in &self.series {
            for (row, &headroom) in series.cells.iter().zip(&self.headroom) {
                for (cell, &outage) in row.iter().zip(&self.outages_s) {
                    out += &format!(
                        "{},{},{},{},{},{},{},{}\n",
                        series.label,
                        number(headroom),
                        number(outage),
                        cell.outcome.name(),
                        optional(cell.recovery_s),
                        number(cell.exhausted_share),
                        optional(cell.peak_multiple),
                        number(cell.goodput_vs_arrivals),
                    );
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slow cell whose deliveries ran out of attempts is not said to have a backlog waiting
    /// an hour on: the storm of the same scenario says its backlog is gone, partly by
    /// exhaustion (outside tester, `#preset=aws-sns`).
    #[test]
    fn a_slow_cell_with_exhaustion_is_not_said_to_wait() {
        let cell = |exhausted_share: f64| Cell {
            outcome: Outcome::Slow,
            recovery_s: None,
            exhausted_share,
            peak_multiple: Some(4.0),
            goodput_vs_arrivals: 1.02,
        };
        let said = |c: &Cell| {
            let own = Own {
                cell: Some(c),
                computable: true,
            };
            own_sentence((600.0, 3.0), &own).unwrap()
        };
        assert_eq!(
            said(&cell(0.07)),
            "Your scenario (an outage of 10 min at 3.00× headroom) recovers slowly: its backlog \
             is not cleared by delivery alone within 1 h of the outage's end (7% of its \
             deliveries ran out of attempts, kept for a replay), though goodput in that hour is \
             102% of the arrival rate."
        );
        assert!(said(&cell(0.0)).contains("its backlog is not delivered within 1 h"));
    }

    /// Surviving counts slow cells (outside SRE review: "survives every outage up to 2 h" read
    /// as recovering when those cells' backlogs outlasted the hour): the first slow outage up
    /// to the boundary is named; one past it, or a row not computed yet, adds nothing.
    #[test]
    fn a_boundary_with_slow_cells_before_it_names_the_first() {
        let cell = |outcome| Cell {
            outcome,
            recovery_s: None,
            exhausted_share: 0.0,
            peak_multiple: None,
            goodput_vs_arrivals: 1.0,
        };
        let outages = [10.0, 20.0, 30.0, 40.0];
        let row = [
            cell(Outcome::Recovers),
            cell(Outcome::Slow),
            cell(Outcome::Slow),
            cell(Outcome::Collapsed),
        ];
        assert_eq!(
            survives(Some(30.0), &row, &outages),
            "survives outages up to 30 s, slowly from 20 s (its backlog outlasts the hour)"
        );
        assert_eq!(
            survives(Some(10.0), &row, &outages),
            "survives outages up to 10 s"
        );
        assert_eq!(
            survives(Some(40.0), &[], &outages),
            "survives every outage up to 40 s"
        );
        // Recovered at the expense of most deliveries, exhausted during the outage: said.
        let exhausted = |share| Cell {
            exhausted_share: share,
            ..cell(Outcome::Recovers)
        };
        let row = [exhausted(0.2), exhausted(0.6), exhausted(0.959)];
        assert_eq!(
            survives(Some(30.0), &row, &outages),
            "survives outages up to 30 s, though from 20 s most deliveries run out of attempts (60% exhausted)"
        );
        // Just over a half reads over 50%.
        let row = [exhausted(0.2), exhausted(0.50004), exhausted(0.959)];
        assert!(survives(Some(30.0), &row, &outages).ends_with("(50.004% exhausted)"));
    }

    /// Every fractional number of the CSV to 12 significant digits, the axes' too (a geometric
    /// axis's 1.2779445558198879× read so).
    #[test]
    fn the_csv_rounds_the_axes_as_every_other_column() {
        let cell = Cell {
            outcome: Outcome::Recovers,
            recovery_s: Some(12.345678901234567),
            exhausted_share: 0.0,
            peak_multiple: Some(2.0),
            goodput_vs_arrivals: 1.0,
        };
        let map = SurvivalMap {
            outages_s: vec![1.0 / 3.0 * 100.0],
            headroom: vec![1.2779445558198879],
            recovery_window_s: 3600,
            current: (600.0, 3.0),
            scenario: None,
            series: vec![Series {
                label: "your policy".into(),
                cells: vec![vec![cell]],
                boundary: vec![None],
            }],
            rows_pending: 0,
            caption: String::new(),
        };
        let csv = map.to_csv();
        let line = csv.lines().nth(1).expect("one cell");
        assert_eq!(
            line,
            "your policy,1.27794455582,33.3333333333,recovers,12.3456789012,0,2,1"
        );
    }

    /// The same storm's goodput read "1%" in the storm's caption and "0.8%" here: both write
    /// it as a whole percentage, with decimals only where it would read 0% or 100%.
    #[test]
    fn goodput_reads_as_the_storm_caption_writes_it() {
        let cell = |goodput_vs_arrivals| Cell {
            outcome: Outcome::Collapsed,
            recovery_s: None,
            exhausted_share: 0.0,
            peak_multiple: None,
            goodput_vs_arrivals,
        };
        let sentence = |goodput| {
            let cell = cell(goodput);
            let own = Own {
                cell: Some(&cell),
                computable: true,
            };
            own_sentence((600.0, 3.0), &own).unwrap()
        };
        assert!(sentence(0.008)
            .contains("goodput in the hour after the outage is 1% of the arrival rate"));
        assert!(sentence(0.004).contains("is 0.4% of the arrival rate"));
    }
}
