//! The page's sliders: the stops of its duration sliders, and where a slider's thumb stands for
//! the text typed into its field.

/// The stops of the page's duration sliders, in seconds: values a person would pick.
pub fn slider_stops() -> Vec<(&'static str, Vec<f64>)> {
    vec![
        (
            "base",
            vec![
                0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 15.0, 20.0, 30.0, 45.0, 60.0, 90.0, 120.0,
                180.0, 300.0, 600.0, 900.0, 1800.0, 3600.0, 7200.0, 10800.0, 21600.0, 43200.0,
                86400.0,
            ],
        ),
        (
            "cap",
            vec![
                1.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0, 900.0, 1800.0, 3600.0,
                7200.0, 10800.0, 21600.0, 43200.0, 86400.0, 172800.0, 604800.0,
            ],
        ),
        (
            "give-up",
            vec![
                60.0, 300.0, 600.0, 1800.0, 3600.0, 7200.0, 10800.0, 21600.0, 43200.0, 86400.0,
                172800.0, 259200.0, 604800.0, 1209600.0, 2592000.0,
            ],
        ),
        (
            "outage",
            vec![
                60.0, 120.0, 300.0, 600.0, 900.0, 1200.0, 1800.0, 3600.0, 7200.0, 10800.0, 21600.0,
            ],
        ),
    ]
}

/// Where the thumb of `field`'s slider stands for the settings' value of the field, or `None`
/// when the thumb keeps its place: the value is not a valid one of the field (see
/// [`slider_position`]), or a formula's base and cap cross (a cap typed under the base, or a
/// base over the cap). Crossed, both thumbs stay at the last schedule drawn, as the charts do
/// while the cap is refused: the cap's thumb had followed a cap of 1 min to the left of a base
/// of 1 h.
pub fn slider_position_in(field: &str, settings: &super::Settings) -> Option<f64> {
    // Each within its own range first: a base of 400 days is refused for itself, and does not
    // cross a cap.
    let read = |key| {
        let text = settings.get(key);
        (super::settings::is_valid(key, text))
            .then(|| crate::parse_duration(key, text).ok())
            .flatten()
    };
    let formula = super::gap_list(settings.get("gaps")).is_empty();
    if formula && matches!(field, "base" | "cap") {
        if let (Some(base), Some(cap)) = (read("base"), read("cap")) {
            if base > cap {
                return None;
            }
        }
    }
    slider_position(field, settings.get(field))
}

/// Where the thumb of `field`'s slider stands for the `text` in its field, or `None` when the
/// text is not a valid value of the field (the render says why, next to the field). A
/// duration slider stands at the index of its stop nearest the duration, by ratio (2 min is
/// nearer 1 min than 5 min); a number slider at the number, a percentage (`10%`) without its
/// sign. Durations must be from 1 µs to 365 days; numbers in the field's range
/// (`attempts` `1e9` or `0` stood at a number no slider has).
pub fn slider_position(field: &str, text: &str) -> Option<f64> {
    // No budget stands at the budget slider's left end, where dragging writes it.
    if field == "budget" && text.trim().is_empty() {
        return Some(0.0);
    }
    if let Some((name, stops)) = slider_stops().into_iter().find(|(name, _)| *name == field) {
        if !super::settings::is_valid(name, text) {
            return None;
        }
        let seconds = crate::parse_duration(name, text).ok()?;
        let distance = |stop: f64| (stop / seconds).ln().abs();
        let nearest = (0..stops.len()).reduce(|best, i| {
            if distance(stops[i]) < distance(stops[best]) {
                i
            } else {
                best
            }
        })?;
        return Some(nearest as f64);
    }
    super::settings::number_of(field, text).filter(|n| n.is_finite() && *n >= 0.0)
}

/// The text `field`'s slider writes into its field with its thumb at `position`: a duration
/// slider's stop in words ("3 h"), the budget slider's left end nothing (no budget: `0` would be
/// `--budget 0`, a budget of no share that still sends its floor's retries) and its other
/// positions as percentages ("10%"), any other number as itself.
pub fn slider_text(field: &str, position: f64) -> String {
    if let Some((_, stops)) = slider_stops().into_iter().find(|(name, _)| *name == field) {
        let index = (position.max(0.0) as usize).min(stops.len() - 1);
        return crate::format_duration(stops[index]);
    }
    match field {
        "budget" if position <= 0.0 => String::new(),
        // With its unit, which the slider then says too.
        "budget" => format!("{position}%"),
        _ => position.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The budget slider's left end is no budget, both ways: dragged there it empties the
    /// field, and an empty field stands there (dragged back from 10% it wrote "0", a budget of
    /// no share that holds retries back).
    #[test]
    fn the_budget_sliders_left_end_is_no_budget() {
        assert_eq!(slider_text("budget", 0.0), "");
        assert_eq!(slider_position("budget", ""), Some(0.0));
        assert_eq!(slider_text("budget", 10.0), "10%");
        assert_eq!(slider_position("budget", "10"), Some(10.0));
        assert_eq!(slider_text("multiplier", 1.5), "1.5");
        assert_eq!(slider_text("cap", 13.0), "3 h");
        assert_eq!(
            slider_position("cap", &slider_text("cap", 13.0)),
            Some(13.0)
        );
        assert_eq!(
            slider_text("cap", 99.0),
            "7 days",
            "past the end: the last stop"
        );
    }

    /// The thumb follows what the core reads: the nearest stop by ratio, ties to the lower.
    #[test]
    fn a_duration_stands_at_its_nearest_stop_by_ratio() {
        // The cap's stops: 1 s, 5 s, 10 s, 20 s, 30 s, 60 s, ...
        assert_eq!(slider_position("cap", "5s"), Some(1.0));
        assert_eq!(
            slider_position("cap", "2 s"),
            Some(0.0),
            "2 s is 2× 1 s and 2.5× short of 5 s"
        );
        assert_eq!(
            slider_position("cap", "3s"),
            Some(1.0),
            "3 s is 3× 1 s and 1.67× short of 5 s"
        );
        assert_eq!(slider_position("cap", "1 min"), Some(5.0));
        assert_eq!(
            slider_position("cap", "30d"),
            Some(18.0),
            "past the end: the last stop"
        );
        // sqrt(1 × 5) s lies as far from both: the lower one.
        assert_eq!(
            slider_position("cap", &format!("{}s", 5f64.sqrt())),
            Some(0.0)
        );
        assert_eq!(slider_position("base", "100ms"), Some(0.0));
        assert_eq!(slider_position("give-up", "3 days"), Some(11.0));
        assert_eq!(slider_position("outage", "10 min"), Some(3.0));
        assert_eq!(
            slider_position("cap", "5"),
            Some(1.0),
            "a bare number is seconds, as the core reads it"
        );
        for refused in ["", "0s", "-5s", "soon", "5 parsecs", "400d"] {
            assert_eq!(slider_position("cap", refused), None, "{refused:?}");
        }
    }

    /// A cap typed under the base (or a base over the cap) is refused, and neither thumb
    /// follows it; uncrossed, both follow their fields, and a preset's listed gaps have no base
    /// to cross.
    #[test]
    fn crossed_base_and_cap_keep_their_thumbs() {
        let settings = |pairs: &[(&str, &str)]| {
            let mut settings = crate::page::Settings::default();
            for (key, value) in pairs {
                settings.set(key, *value);
            }
            settings
        };
        let crossed = settings(&[("base", "1h"), ("cap", "1m")]);
        assert_eq!(slider_position_in("cap", &crossed), None);
        assert_eq!(slider_position_in("base", &crossed), None);
        assert_eq!(
            slider_position_in("attempts", &crossed),
            slider_position("attempts", crossed.get("attempts")),
            "the other sliders follow their fields"
        );
        let equal = settings(&[("base", "1h"), ("cap", "60 min")]);
        assert_eq!(slider_position_in("cap", &equal), Some(11.0));
        assert_eq!(slider_position_in("base", &equal), Some(19.0));
        // A base refused for its own range crosses nothing: the cap's thumb follows its field.
        let refused = settings(&[("base", "400d"), ("cap", "1h")]);
        assert_eq!(slider_position_in("cap", &refused), Some(11.0));
        let listed = settings(&[("base", "1h"), ("cap", "1m"), ("gaps", "5s, 1m")]);
        assert_eq!(slider_position_in("cap", &listed), Some(5.0));
    }

    #[test]
    fn a_number_stands_at_itself_and_a_percentage_without_its_sign() {
        assert_eq!(slider_position("multiplier", " 2.5 "), Some(2.5));
        assert_eq!(
            slider_position("attempts", "41"),
            Some(41.0),
            "past the slider's end"
        );
        assert_eq!(slider_position("budget", "10%"), Some(10.0));
        assert_eq!(slider_position("budget", "12.5 %"), Some(12.5));
        assert_eq!(slider_position("budget", "7"), Some(7.0));
        for refused in ["", "%", "NaN", "inf", "-1", "two", "3s"] {
            assert_eq!(slider_position("multiplier", refused), None, "{refused:?}");
        }
        assert_eq!(
            slider_position("attempts", "10%"),
            None,
            "a percentage only where the field takes one"
        );
        // Out of the field's range: no slider stands there (they read 1e308, 1e9, 0 and 5).
        for (field, text) in [
            ("multiplier", "1e308"),
            ("attempts", "1e9"),
            ("attempts", "0"),
            ("factor", "5"),
        ] {
            assert_eq!(slider_position(field, text), None, "{field} {text}");
        }
    }
}
