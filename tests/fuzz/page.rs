//! The page: the URL hash, settings, each view's costly step and drawing.

use crate::api::known_slow;
use crate::prelude::*;

/// Every setting key of the page.
pub(crate) fn setting_keys() -> Vec<&'static str> {
    Settings::default().iter().map(|(key, _)| key).collect()
}

pub(crate) const PRESETS: &[&str] = &[
    "article",
    "svix",
    "standard-webhooks",
    "azure-event-grid",
    "grpc",
    "aws-sdk-standard",
    "aws-sns",
    "nope",
    "SVIX",
];

/// A value for a setting: what the page's control could hold, or anything.
pub(crate) fn setting_value() -> BoxedStrategy<String> {
    prop_oneof![
        3 => duration_text(),
        2 => from_list(NUMBER_TEXT),
        1 => (0u64..30).prop_map(|n| n.to_string()),
        2 => rate_text(),
        1 => from_list(&["true", "false", "attempts", "give-up", "timeline", "distribution",
            "herd", "storm", "schedule", "jitter", "auto", "fluid", "discrete", "20000",
            "100000", "1000000", "none", "full", "equal", "decorrelated", "proportional",
            "aws", "grpc"]),
        1 => from_list(PRESETS),
        1 => prop::collection::vec(duration_text(), 0..5).prop_map(|g| g.join(",")),
        2 => weird_text(),
    ]
    .boxed()
}

pub(crate) fn setting_key() -> BoxedStrategy<String> {
    prop_oneof![
        6 => prop::sample::select(setting_keys()).prop_map(str::to_string),
        1 => "[a-z-]{0,10}",
        1 => weird_text(),
    ]
    .boxed()
}

/// Percent-encodes some characters of `text` (or all of them), as a link would.
pub(crate) fn escaped(text: &str, all: bool) -> String {
    text.chars()
        .map(|c| {
            if all || matches!(c, ' ' | '&' | '=' | '%' | '#' | '+') || !c.is_ascii() {
                let mut buf = [0u8; 4];
                c.encode_utf8(&mut buf)
                    .bytes()
                    .map(|b| format!("%{b:02X}"))
                    .collect()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A URL hash: known keys with random values (escaped or not), `&`/`=` and percent soup,
/// any text, very long text.
pub(crate) fn hash() -> BoxedStrategy<String> {
    let pairs =
        prop::collection::vec((setting_key(), setting_value(), 0u8..4), 0..10).prop_map(|pairs| {
            pairs
                .into_iter()
                .map(|(key, value, how)| match how {
                    0 => format!("{key}={value}"),
                    1 => format!("{}={}", escaped(&key, false), escaped(&value, false)),
                    2 => format!("{}={}", escaped(&key, true), escaped(&value, true)),
                    _ => key,
                })
                .collect::<Vec<_>>()
                .join("&")
        });
    prop_oneof![
        6 => pairs.clone().prop_map(|h| format!("#{h}")),
        2 => pairs,
        2 => "(%[0-9A-Fa-f]{0,2}|[&=+#]|[a-z-]{1,12}|%FF|%C3%28|%E2%82){0,40}",
        2 => "\\PC{0,200}",
        1 => (4_000usize..4_200).prop_map(|n| format!("base={}", "9".repeat(n))),
        1 => Just(format!("#{}", "&".repeat(5_000))),
        1 => Just("#".to_string()),
    ]
    .boxed()
}

/// Settings as JavaScript may hand them over: an object of strings for known keys (values
/// never validated), unknown keys.
pub(crate) fn settings_object() -> BoxedStrategy<Map<String, Value>> {
    prop::collection::vec((setting_key(), setting_value()), 0..12)
        .prop_map(|pairs| {
            pairs
                .into_iter()
                .map(|(k, v)| (k, Value::String(v)))
                .collect()
        })
        .boxed()
}

pub(crate) const CONTROLS: &[&str] = &[
    "preset",
    "base",
    "multiplier",
    "cap",
    "attempts",
    "give-up",
    "stop",
    "drop-gaps",
    "mode",
    "view",
    "",
    "nonsense",
];

pub(crate) fn view() -> impl Strategy<Value = View> {
    prop::sample::select(View::ALL.to_vec())
}

/// `computeView`, `drawView` / `viewSvg`, `previewSettings`, `embedSnippet`, `pageSchedule`,
/// `encodeState`, `settingEdited`, for one view and settings.
pub(crate) fn page_case(
    what: &str,
    view: View,
    settings: &Settings,
    control: &str,
    options: ChartOptions,
) -> Result<(), TestCaseError> {
    let _ = page::encode_hash(settings);
    let _ = page::edited(settings.clone(), control);
    let _ = page::embed_snippet(settings, view, "https://example.com/embed.html");
    if page::preview(view, settings).is_some() {
        prop_assert!(
            !matches!(view, View::Timeline | View::Storm),
            "a preview of {:?}",
            view
        );
    }
    // `pageSchedule`: the page's policy through the JS API's schedule export.
    let params = page::policy_params(settings);
    let schedule = params
        .policy()
        .and_then(|p| Ok(ScheduleReport::new(&p.schedule(), params.window_s()?)));
    check(&format!("{what}: page schedule"), &schedule)?;
    // `pageStaleness`: the page's policy's staleness report.
    let staleness = page::staleness_params(settings);
    if known_slow("staleness api", &staleness).is_none() {
        check(
            &format!("{what}: page staleness"),
            &staleness.staleness_report(),
        )?;
    }
    if view == View::Staleness && known_slow("staleness api", &staleness).is_some() {
        tally(what, "skipped (jittered staleness of a long schedule)");
        return Ok(());
    }
    // A whole survival map takes seconds by design (its work limit has its own tests): the
    // fuzzer draws the generated map's axes with at most 4 × 3 steps.
    let mut small_map = settings.clone();
    let settings = match backoff_lab::survival::step_counts(settings.get("steps")) {
        Ok((outages, headroom)) if view == View::Survival && outages * headroom > 12 => {
            tally(what, "survival map drawn with 4x3 steps");
            small_map.set("steps", "4x3");
            &small_map
        }
        _ => settings,
    };
    let computed = page::compute(view, settings, &mut Memo::default());
    tally(
        &format!("{what}-{}", view.name()),
        &outcome(&computed.clone().map_err(|e| e.message)),
    );
    let computed = match computed {
        Err(error) => return check_page_error(&format!("{what}: compute"), &error),
        Ok(computed) => computed,
    };
    check_numbers(&format!("{what}: computed"), &computed)?;
    let options = match options.validated() {
        Err(error) => return check_error(what, &error),
        Ok(options) => options,
    };
    let mut drawn = None;
    let mut refused = None;
    let svg = chart::to_svg((800, 400), |area| {
        match page::draw(area, view, settings, &computed, &options) {
            Ok(d) => drawn = Some(d),
            Err(e) => refused = Some(e),
        }
        Ok(())
    });
    if let Err(error) = &svg {
        check_error(&format!("{what}: draw"), error)?;
    }
    if let Some(error) = &refused {
        check_page_error(&format!("{what}: draw"), error)?;
    }
    if let Some(drawn) = &drawn {
        check_numbers(&format!("{what}: drawn"), drawn)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    /// `decodeState`: any text reads into settings (with notices, never an error); the
    /// settings written back read again without a notice, to the same settings.
    #[test]
    fn any_hash_decodes_and_round_trips(hash in hash(), control in prop::sample::select(CONTROLS)) {
        guarded("decode", KNOWN_PANICS, || {
            let state = timed("decode", &hash, || page::resolve(page::decode_hash(&hash)));
            for notice in &state.notices {
                prop_assert!(!notice.contains('\n'), "a notice of several lines: {:?}", notice);
                prop_assert!(
                    notice.chars().count() < 400,
                    "a notice of {} characters: {:?}", notice.chars().count(), notice
                );
            }
            let written = page::encode_hash(&state.settings);
            let again = page::resolve(page::decode_hash(&written));
            prop_assert!(again.notices.is_empty(), "{:?} read back with notices {:?}", written, again.notices);
            prop_assert_eq!(&again.settings, &state.settings, "{:?} read back differently", written);
            let _ = page::edited(state.settings.clone(), control);
            check_numbers("decoded", &state)
        })?;
    }
}

proptest! {
    #![proptest_config(config(96))]

    /// A decoded hash, computed and drawn in every view.
    #[test]
    fn decoded_settings_compute_and_draw(
        hash in hash(),
        view in view(),
        control in prop::sample::select(CONTROLS),
        options in chart_options(),
    ) {
        let settings = page::resolve(page::decode_hash(&hash)).settings;
        guarded("decoded page", KNOWN_PANICS, || {
            timed("decoded page", &(view, &settings), || page_case("decoded", view, &settings, control, options))
        })?;
    }

    /// Settings handed over as a JSON object (never validated), computed and drawn.
    #[test]
    fn any_settings_compute_and_draw(
        object in settings_object(),
        view in view(),
        control in prop::sample::select(CONTROLS),
        options in chart_options(),
    ) {
        let settings: Settings = match serde_json::from_value(Value::Object(object)) {
            Ok(settings) => settings,
            Err(_) => return Ok(()),
        };
        guarded("settings page", KNOWN_PANICS, || {
            timed("settings page", &(view, &settings), || page_case("settings", view, &settings, control, options))
        })?;
    }
}

/// Each view's computed result for the default settings (one storm series), as JSON.
pub(crate) fn default_computed(view: View) -> Option<Value> {
    static COMPUTED: OnceLock<Vec<Option<Value>>> = OnceLock::new();
    let all = COMPUTED.get_or_init(|| {
        View::ALL
            .iter()
            .map(|&v| {
                let mut settings = Settings::default();
                settings.set("storm-compare", "false");
                let computed = page::compute(v, &settings, &mut Memo::default()).ok()?;
                serde_json::to_value(&computed).ok()
            })
            .collect()
    });
    all[View::ALL.iter().position(|&v| v == view)?].clone()
}

pub(crate) fn number_slots(value: &mut Value) -> Vec<&mut Value> {
    fn collect<'a>(value: &'a mut Value, slots: &mut Vec<&'a mut Value>) {
        match value {
            Value::Number(_) => slots.push(value),
            Value::Array(items) => items.iter_mut().for_each(|v| collect(v, slots)),
            Value::Object(map) => map.values_mut().for_each(|v| collect(v, slots)),
            _ => {}
        }
    }
    let mut slots = Vec::new();
    collect(value, &mut slots);
    slots
}

/// The arrays holding no array or object (histogram counts, per-second bins, ...) and the
/// arrays of objects (rows, minutes, reports), which cannot be borrowed with their elements.
pub(crate) fn array_slots(value: &mut Value) -> Vec<&mut Vec<Value>> {
    fn collect<'a>(value: &'a mut Value, slots: &mut Vec<&'a mut Vec<Value>>) {
        match value {
            Value::Array(items) => {
                if items.iter().any(|v| v.is_array() || v.is_object()) {
                    items.iter_mut().for_each(|v| collect(v, slots));
                } else {
                    slots.push(items);
                }
            }
            Value::Object(map) => map.values_mut().for_each(|v| collect(v, slots)),
            _ => {}
        }
    }
    let mut slots = Vec::new();
    collect(value, &mut slots);
    slots
}

#[derive(Debug, Clone)]
pub(crate) enum Mutation {
    /// Replace the `n`th number (mod their count) by this one.
    Number(usize, Value),
    /// Keep the first `k` items of the `n`th leaf array.
    Truncate(usize, usize),
}

pub(crate) fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        8 => (any::<usize>(), json_number()).prop_map(|(n, v)| Mutation::Number(n, v)),
        2 => (any::<usize>(), 0usize..3).prop_map(|(n, k)| Mutation::Truncate(n, k)),
    ]
}

pub(crate) fn mutate(value: &mut Value, mutation: &Mutation) {
    match mutation {
        Mutation::Number(n, v) => {
            let mut slots = number_slots(value);
            if !slots.is_empty() {
                let len = slots.len();
                *slots[n % len] = v.clone();
            }
        }
        Mutation::Truncate(n, keep) => {
            let mut slots = array_slots(value);
            if !slots.is_empty() {
                let len = slots.len();
                slots[n % len].truncate(*keep);
            }
        }
    }
}

/// Panics only a `computed` value from JavaScript could cause (numbers no computation makes);
/// none since such values are refused (`drawing_a_computed_result_with_a_huge_number_is_refused`).
pub(crate) const KNOWN_DRAWING_PANICS: &[&str] = &[];

proptest! {
    #![proptest_config(config(192))]

    /// `drawView` / `viewSvg` with a `computed` value from JavaScript: a real one with numbers
    /// replaced (huge, tiny, negative, beyond 2^53), arrays cut, or another view's.
    #[test]
    fn drawing_a_mutated_computed_result(
        view in view(),
        from in view(),
        mutations in prop::collection::vec(mutation(), 1..4),
        size in svg_size(),
    ) {
        let Some(mut value) = default_computed(from) else { return Ok(()) };
        for m in &mutations {
            mutate(&mut value, m);
        }
        let Ok(computed) = serde_json::from_value::<Computed>(value) else { return Ok(()) };
        let mut settings = Settings::default();
        settings.set("storm-compare", "false");
        let input = (view, &mutations, size);
        guarded("draw mutated", KNOWN_DRAWING_PANICS, || {
            let svg = timed("draw mutated", &input, || chart::to_svg(size, |area| {
                page::draw(area, view, &settings, &computed, &ChartOptions::default())
                    .map(|_| ())
                    .map_err(|e| Error::Unreachable(e.message))
            }));
            if let Err(error) = &svg {
                check_error("draw mutated", error)?;
            }
            Ok(())
        })?;
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// `drawView` / `viewSvg` with packed bytes from JavaScript that `computeView` did not make:
    /// a real result with bytes overwritten or cut. Refused with a message naming `computed`,
    /// or read as some other result and then drawn or refused like any other: never a panic.
    #[test]
    fn drawing_garbled_packed_bytes(
        view in view(),
        writes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in prop::option::of(any::<prop::sample::Index>()),
    ) {
        let Some(value) = default_computed(view) else { return Ok(()) };
        let computed: Computed = serde_json::from_value(value).unwrap();
        let mut bytes = page::pack(computed).unwrap();
        for (at, byte) in &writes {
            let i = at.index(bytes.len());
            bytes[i] = *byte;
        }
        if let Some(cut) = cut {
            bytes.truncate(cut.index(bytes.len()));
        }
        let computed = match page::unpack(&bytes) {
            Ok(computed) => computed,
            Err(error) => {
                let message = error.to_string();
                prop_assert!(message.starts_with("computed must be what computeView returned"), "{}", message);
                return Ok(());
            }
        };
        let mut settings = Settings::default();
        settings.set("storm-compare", "false");
        let input = (view, &writes, cut);
        guarded("draw garbled bytes", KNOWN_DRAWING_PANICS, || {
            let svg = timed("draw garbled bytes", &input, || chart::to_svg((800, 400), |area| {
                page::draw(area, view, &settings, &computed, &ChartOptions::default())
                    .map(|_| ())
                    .map_err(|e| Error::Unreachable(e.message))
            }));
            if let Err(error) = &svg {
                check_error("draw garbled bytes", error)?;
            }
            Ok(())
        })?;
    }
}
