//! Browser tests (`wasm-pack test --headless --chrome`): the JS API against the native core, and
//! the timeline drawn into a real canvas.
#![cfg(target_arch = "wasm32")]

use backoff_lab::wasm::api::schedule;
use backoff_lab::wasm::charts::draw_timeline;
use backoff_lab::{Policy, ScheduleReport};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn params(json: &str) -> JsValue {
    js_sys::JSON::parse(json).expect("test parameters are valid JSON")
}

fn article_params() -> JsValue {
    params(r#"{"base": "30s", "multiplier": 3, "cap": 10800, "attempts": 14}"#)
}

#[wasm_bindgen_test]
fn schedule_in_wasm_equals_native_for_the_article() {
    let js = schedule(article_params()).expect("the article's policy is valid");
    let from_wasm: ScheduleReport = serde_wasm_bindgen::from_value(js.clone()).unwrap();
    let native = ScheduleReport::new(&Policy::article().schedule(), 1_200.0);
    assert_eq!(from_wasm, native);
    // JSON-compatible: attempt 1's gap is null, as in the CLI's JSON.
    let rows = js_sys::Reflect::get(&js, &"rows".into()).unwrap();
    let first = js_sys::Reflect::get(&rows, &0.into()).unwrap();
    assert!(js_sys::Reflect::get(&first, &"gap_s".into())
        .unwrap()
        .is_null());
}

#[wasm_bindgen_test]
fn invalid_input_throws_an_error_naming_the_field() {
    for (input, field, message) in [
        (
            r#"{"base": "abc", "multiplier": 3, "cap": "3h", "attempts": 14}"#,
            "base",
            "base must be a duration",
        ),
        (
            r#"{"base": "30s", "multiplier": 0.5, "cap": "3h", "attempts": 14}"#,
            "multiplier",
            "multiplier must be a number from 1 to 1000, got 0.5",
        ),
        (
            r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 1e12}"#,
            "attempts",
            "attempts must be a whole number from 1 to 10000",
        ),
        (
            r#"{"base": -5, "multiplier": 3, "cap": "3h", "attempts": 3}"#,
            "base",
            "base must be a duration from 1 µs",
        ),
    ] {
        let err = schedule(params(input)).expect_err(input);
        let err: js_sys::Error = err.dyn_into().expect("a real Error");
        assert!(
            String::from(err.message()).starts_with(message),
            "{input}: {}",
            String::from(err.message())
        );
        assert_eq!(
            js_sys::Reflect::get(&err, &"field".into()).unwrap(),
            JsValue::from(field)
        );
    }
    let err = schedule(params(r#"{"multiplier": 3}"#)).expect_err("missing base");
    assert!(err.is_instance_of::<js_sys::Error>());
    let err = schedule(JsValue::from_f64(f64::NAN)).expect_err("not an object");
    assert!(err.is_instance_of::<js_sys::Error>());
}

fn canvas(id: &str) -> web_sys::HtmlCanvasElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: web_sys::HtmlCanvasElement = document
        .create_element("canvas")
        .unwrap()
        .dyn_into()
        .unwrap();
    canvas.set_id(id);
    canvas.set_width(900);
    canvas.set_height(320);
    document.body().unwrap().append_child(&canvas).unwrap();
    canvas
}

fn painted_pixels(canvas: &web_sys::HtmlCanvasElement) -> usize {
    let context: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let data = context
        .get_image_data(0.0, 0.0, 900.0, 320.0)
        .unwrap()
        .data();
    data.chunks(4).filter(|px| px[3] != 0).count()
}

#[wasm_bindgen_test]
fn drawing_the_timeline_changes_the_canvas_pixels() {
    let canvas = canvas("timeline-test");
    assert_eq!(painted_pixels(&canvas), 0);
    let options = params(r#"{"logScale": true}"#);
    let report = draw_timeline(
        JsValue::from("timeline-test"),
        article_params(),
        options,
        JsValue::UNDEFINED,
    )
    .expect("drawn");
    assert_eq!(
        js_sys::Reflect::get(&report, &"give_up_s".into()).unwrap(),
        JsValue::from(86_520.0)
    );
    assert_eq!(
        painted_pixels(&canvas),
        900 * 320,
        "the background fills the canvas"
    );
    let light = canvas.to_data_url().unwrap();
    draw_timeline(
        JsValue::from("timeline-test"),
        article_params(),
        params(r#"{"dark": true}"#),
        JsValue::UNDEFINED,
    )
    .unwrap();
    assert_ne!(
        canvas.to_data_url().unwrap(),
        light,
        "the dark theme draws other pixels"
    );
}

#[wasm_bindgen_test]
fn a_missing_canvas_is_an_error_not_a_panic() {
    let err = draw_timeline(
        JsValue::from("no-such-canvas"),
        article_params(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    )
    .expect_err("no canvas");
    let (field, message) = refusal(Err::<JsValue, _>(err));
    assert_eq!(field, "canvas");
    assert_eq!(
        message,
        "canvas must be a <canvas> element of the document, or its id, got \"no-such-canvas\", the id of no element"
    );
    // Another element, given or named, and a value that is neither.
    let document = web_sys::window().unwrap().document().unwrap();
    let body: JsValue = document.body().unwrap().into();
    let paragraph = document.create_element("p").unwrap();
    paragraph.set_id("not-a-canvas");
    document.body().unwrap().append_child(&paragraph).unwrap();
    for (target, got) in [
        (body, "a <body>".to_string()),
        (
            JsValue::from("not-a-canvas"),
            "\"not-a-canvas\", the id of a <p>".to_string(),
        ),
        (JsValue::from(7), "a value of type number".to_string()),
    ] {
        let err = draw_timeline(
            target,
            article_params(),
            JsValue::UNDEFINED,
            JsValue::UNDEFINED,
        )
        .expect_err("not a canvas");
        let (field, message) = refusal(Err::<JsValue, _>(err));
        assert_eq!(field, "canvas");
        assert!(message.ends_with(&format!("got {got}")), "{message}");
    }
    let err = draw_timeline(
        JsValue::from("timeline-test"),
        article_params(),
        params(r#"{"scale": 99}"#),
        JsValue::UNDEFINED,
    );
    assert!(err.is_err());
}

#[wasm_bindgen_test]
fn seeded_jitter_in_wasm_equals_native_to_the_last_bit() {
    use backoff_lab::give_up::{JitterReport, Sampling, HISTOGRAM_BINS};
    use backoff_lab::jitter::Jitter;
    for (mode, jitter) in [
        ("full", Jitter::Full),
        ("decorrelated", Jitter::Decorrelated),
        ("proportional", Jitter::proportional(0.2).unwrap()),
    ] {
        let input = format!(
            r#"{{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "mode": "{mode}", "seed": 42, "samples": 20000}}"#
        );
        let js = backoff_lab::wasm::api::jitter(params(&input)).expect("valid");
        let from_wasm: JitterReport = serde_wasm_bindgen::from_value(js).unwrap();
        let native = JitterReport::new(
            &Policy::article(),
            jitter,
            Sampling {
                samples: 20_000,
                seed: 42,
                bins: HISTOGRAM_BINS,
            },
            None,
        )
        .unwrap();
        assert_eq!(from_wasm, native, "{mode}");
    }
    let js = backoff_lab::wasm::api::herd(params(r#"{"base": 30, "multiplier": 3, "cap": 10800, "attempts": 14, "mode": "full", "seed": 7, "deliveries": 500}"#)).unwrap();
    let from_wasm: backoff_lab::herd::Herd = serde_wasm_bindgen::from_value(js).unwrap();
    let native = backoff_lab::herd::herd(&Policy::article(), Jitter::Full, 500, 7).unwrap();
    assert_eq!(from_wasm, native);
    // A schedule past 2^32 s (136 years): its bins were counted in wasm's 32-bit usize, which
    // wrapped to one bin of 1 s holding every retry.
    let js = backoff_lab::wasm::api::herd(params(r#"{"base": "365d", "multiplier": 1, "cap": "365d", "attempts": 138, "mode": "full", "seed": 1, "deliveries": 100}"#)).unwrap();
    let from_wasm: backoff_lab::herd::Herd = serde_wasm_bindgen::from_value(js).unwrap();
    let long = Policy::new(
        365.0 * 86_400.0,
        1.0,
        365.0 * 86_400.0,
        backoff_lab::Stop::Attempts(138),
    )
    .unwrap();
    let native = backoff_lab::herd::herd(&long, Jitter::Full, 100, 1).unwrap();
    assert!(native.bin_s > 1.0, "{}", native.bin_s);
    assert_eq!(from_wasm, native);
}

#[wasm_bindgen_test]
fn jitter_refusals_throw_errors_with_their_field() {
    for (input, field) in [
        (
            r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "mode": "proportional", "factor": 2}"#,
            "factor",
        ),
        (
            r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "mode": "full", "samples": 1e9}"#,
            "samples",
        ),
        (
            r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "mode": "full", "seed": -3}"#,
            "seed",
        ),
        (
            r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "mode": "full", "deliveries": 0}"#,
            "deliveries",
        ),
        // A deadline no count of attempts reaches is refused, as `backoff-lab jitter` refuses
        // it (the API answered it in a caption: outside review).
        (
            r#"{"base": "1us", "multiplier": 1, "cap": "1us", "attempts": 14, "mode": "full", "seed": 1, "deadline": "365d", "percentile": 99.9}"#,
            "deadline",
        ),
    ] {
        let err = backoff_lab::wasm::api::jitter(params(input))
            .and_then(|_| backoff_lab::wasm::api::herd(params(input)))
            .expect_err(input);
        assert!(err.is_instance_of::<js_sys::Error>());
        assert_eq!(
            js_sys::Reflect::get(&err, &"field".into()).unwrap(),
            JsValue::from(field),
            "{input}"
        );
    }
    let seed = backoff_lab::wasm::api::new_seed().unwrap();
    assert!(seed >= 0.0 && seed.fract() == 0.0 && seed <= u32::MAX as f64);
}

#[wasm_bindgen_test]
fn the_same_seed_draws_the_same_distribution_pixels() {
    let canvas = canvas("distribution-test");
    let input = r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "mode": "full", "seed": 5, "samples": 20000}"#;
    backoff_lab::wasm::charts::draw_distribution(
        JsValue::from("distribution-test"),
        params(input),
        JsValue::UNDEFINED,
    )
    .unwrap();
    let first = canvas.to_data_url().unwrap();
    backoff_lab::wasm::charts::draw_distribution(
        JsValue::from("distribution-test"),
        params(input),
        JsValue::UNDEFINED,
    )
    .unwrap();
    assert_eq!(canvas.to_data_url().unwrap(), first);
    let other = input.replace("\"full\"", "\"equal\"");
    backoff_lab::wasm::charts::draw_distribution(
        JsValue::from("distribution-test"),
        params(&other),
        JsValue::UNDEFINED,
    )
    .unwrap();
    assert_ne!(canvas.to_data_url().unwrap(), first);
    // A herd draws no give-up times: the distribution's `samples` is refused by name.
    let herd = |input: &str| {
        backoff_lab::wasm::charts::draw_herd(
            JsValue::from("distribution-test"),
            params(input),
            JsValue::UNDEFINED,
        )
    };
    let refused = herd(input).unwrap_err();
    assert_eq!(
        js_sys::Reflect::get(&refused, &"field".into()).unwrap(),
        JsValue::from("samples")
    );
    herd(&input.replace(r#", "samples": 20000"#, "")).unwrap();
    assert!(painted_pixels(&canvas) > 0);
}

#[wasm_bindgen_test]
fn seeded_storm_in_wasm_equals_native_and_draws() {
    use backoff_lab::storm::{simulate_discrete, StormReport};
    let input = r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "mode": "full", "seed": 9,
                    "policy": "exponential", "traffic": "20m", "budget": "10%", "engine": "discrete"}"#;
    let js = backoff_lab::wasm::api::storm(params(input)).expect("valid scenario");
    let scenario = js_sys::Reflect::get(&js, &"scenario".into()).unwrap();
    let from_wasm: StormReport = serde_wasm_bindgen::from_value(js).unwrap();
    let native_params: backoff_lab::Params = serde_json::from_str(input).unwrap();
    let native = simulate_discrete(&native_params.scenario().unwrap(), false).unwrap();
    assert_eq!(from_wasm, native);
    assert_eq!(from_wasm.summary.arrivals, 12_000.0);
    // Beside the report, what was simulated with the defaults filled in, as the CLI's JSON
    // has it: the 20 minutes of traffic, the budget's window, the attempts.
    let field = |key: &str| js_sys::Reflect::get(&scenario, &key.into()).unwrap();
    assert_eq!(field("traffic_s"), JsValue::from(1_200));
    assert_eq!(field("budget_percent"), JsValue::from(10));
    assert_eq!(field("budget_window_s"), JsValue::from(60));
    assert_eq!(field("attempts"), JsValue::from(14));
    assert_eq!(field("jitter"), JsValue::from("full"));
    assert_eq!(field("rate_limit_per_s"), JsValue::NULL);

    let canvas = canvas("storm-test");
    let series = format!(
        r#"[{{"label": "mine", "params": {input}}}, {{"label": "fixed", "params": {{"policy": "fixed", "traffic": "20m", "engine": "fluid"}}}}]"#
    );
    let drawn = backoff_lab::wasm::charts::draw_storm(
        JsValue::from("storm-test"),
        params(&series),
        JsValue::UNDEFINED,
    )
    .expect("drawn");
    assert_eq!(js_sys::Array::from(&drawn).length(), 2);
    assert!(painted_pixels(&canvas) > 0);
    // Every key its declaration (`StormDrawn`) names: `outage_s` had been left out.
    let items: Vec<serde_json::Value> = serde_wasm_bindgen::from_value(drawn).unwrap();
    let outage_s = native_params.scenario().unwrap().spec().outage.1;
    assert!(outage_s > 0);
    assert_eq!(items[0]["outage_s"], outage_s);
    let mut keys: Vec<&String> = items[0].as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(keys, ["caption", "label", "outage_s", "summary"]);
    let err = backoff_lab::wasm::charts::draw_storm(
        JsValue::from("storm-test"),
        params("[]"),
        JsValue::UNDEFINED,
    )
    .expect_err("no series");
    assert!(err.is_instance_of::<js_sys::Error>());
    let err = backoff_lab::wasm::api::storm(params(
        r#"{"base": 30, "multiplier": 3, "cap": 10800, "capacity": 0}"#,
    ))
    .expect_err("capacity 0");
    assert_eq!(
        js_sys::Reflect::get(&err, &"field".into()).unwrap(),
        JsValue::from("capacity")
    );
}

/// The JS API's `field` and message of a refused call.
fn refusal(result: Result<JsValue, JsValue>) -> (String, String) {
    let err: js_sys::Error = result.expect_err("refused").dyn_into().unwrap();
    let field = js_sys::Reflect::get(&err, &"field".into()).unwrap();
    (field.as_string().unwrap_or_default(), err.message().into())
}

#[wasm_bindgen_test]
fn the_js_api_takes_the_clis_defaults_and_refuses_what_it_would_ignore() {
    use backoff_lab::storm::{simulate_fluid, Summary};
    use backoff_lab::wasm::api::{format_duration, jitter, parse_duration, schedule, storm};
    let summary = |js: JsValue| -> Summary {
        let report: backoff_lab::storm::StormReport = serde_wasm_bindgen::from_value(js).unwrap();
        report.summary
    };
    let native = |policy: &str| {
        let mut params = backoff_lab::Params {
            policy: Some(policy.into()),
            engine: Some("fluid".into()),
            ..Default::default()
        };
        params.attempts = None;
        simulate_fluid(&params.scenario().unwrap(), false)
            .unwrap()
            .summary
    };
    // Nothing given: the article's storm, the fixed 30 s interval (as `backoff-lab storm`).
    let fixed = summary(storm(params(r#"{"engine": "fluid"}"#)).unwrap());
    assert_eq!(fixed, native("fixed"));
    // A backoff field given: the exponential policy, the rest the article's (as `--base 30s`).
    let backoff = summary(storm(params(r#"{"base": "30s", "engine": "fluid"}"#)).unwrap());
    assert_eq!(backoff, native("exponential"));
    assert!(backoff.delivered > 10.0 * fixed.delivered);
    // ... and with the fixed policy it is refused, not ignored.
    let (field, message) = refusal(storm(params(r#"{"policy": "fixed", "cap": "1h"}"#)));
    assert_eq!(field, "cap");
    assert!(message.contains("exponential policy"), "{message}");

    // The survival map runs on the fluid engine unless told otherwise (as `backoff-lab
    // survival`): README's call, which the discrete engine refuses as too much work.
    let map = backoff_lab::wasm::api::survival(
        params(r#"{"policy": "fixed", "interval": "30s", "giveUp": "2h"}"#),
        params(r#"{"outages": "1m..2h", "steps": "6x4"}"#),
    );
    assert!(map.is_ok(), "{:?}", map.err());
    // With Retry-After (a 1 s threshold, 20 requests within it need 2× the arrivals) the
    // default headroom axis starts where the fluid engine can, as in the CLI and on the page:
    // the map is drawn, not refused.
    let map = backoff_lab::wasm::api::survival(
        params(r#"{"policy": "fixed", "interval": "30s", "giveUp": "2h", "retryAfter": "60s"}"#),
        params(r#"{"outages": "1m..2h", "steps": "6x4"}"#),
    )
    .unwrap();
    let headroom: Vec<f64> =
        serde_wasm_bindgen::from_value(js_sys::Reflect::get(&map, &"headroom".into()).unwrap())
            .unwrap();
    assert_eq!((headroom[0], headroom[3]), (2.0, 20.0));

    // One delivery's jitter: full unless `mode` says otherwise (as `backoff-lab jitter`).
    let report = jitter(params(r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "seed": 1, "samples": 100}"#)).unwrap();
    let mode = js_sys::Reflect::get(&report, &"mode".into()).unwrap();
    assert_eq!(mode, JsValue::from("full"));

    // An empty key is refused by name too (its length once underflowed the slip distance).
    let (field, _) = refusal(schedule(params(
        r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 3, "": 1}"#,
    )));
    assert_eq!(field, "");
    // A misspelt or unknown key is refused by name, never ignored.
    let (field, message) = refusal(schedule(params(
        r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 3, "atempts": 5}"#,
    )));
    assert_eq!(field, "atempts");
    assert!(message.contains("did you mean attempts?"), "{message}");
    let (field, message) = refusal(schedule(params(
        r#"{"base": "30s", "multiplier": 3, "cap": "3h", "give_up": "24h"}"#,
    )));
    assert_eq!(
        (field.as_str(), message.contains("write giveUp")),
        ("give_up", true),
        "{message}"
    );
    // A value of the wrong type names its key; a field's error is spelt as the key.
    let (field, message) = refusal(schedule(params(
        r#"{"base": "30s", "multiplier": "3", "cap": "3h", "attempts": 3}"#,
    )));
    assert_eq!(field, "multiplier", "{message}");
    // In the crate's words, not serde's ("invalid type: unit value, expected struct Params"),
    // with the range the core's own refusals give.
    assert_eq!(
        message,
        "parameters: multiplier must be a number from 1 to 1000, got \"3\""
    );
    // Each value quoted as JavaScript writes it; a list and its items told apart.
    for (given, field, expected) in [
        (
            r#""base": [], "multiplier": 3"#,
            "base",
            "parameters: base must be a number or text, got an array",
        ),
        (
            r#""base": "30s", "multiplier": {}"#,
            "multiplier",
            "parameters: multiplier must be a number from 1 to 1000, got an object",
        ),
        (
            r#""base": "30s", "multiplier": true"#,
            "multiplier",
            "parameters: multiplier must be a number from 1 to 1000, got true",
        ),
    ] {
        let json = format!(r#"{{{given}, "cap": "3h", "attempts": 3}}"#);
        assert_eq!(
            refusal(schedule(params(&json))),
            (field.into(), expected.into())
        );
    }
    for (gaps, expected) in [
        ("5", "parameters: gaps must be a list (an array), got 5"),
        (
            "{}",
            "parameters: gaps must be a list (an array), got an object",
        ),
        (
            r#"["5s", {}]"#,
            "parameters: gaps: each item must be a number or text, got an object",
        ),
        (
            r#"["5s", [1]]"#,
            "parameters: gaps: each item must be a number or text, got an array",
        ),
    ] {
        let json = format!(r#"{{"gaps": {gaps}, "attempts": 3}}"#);
        assert_eq!(
            refusal(schedule(params(&json))),
            ("gaps".into(), expected.into())
        );
    }
    let infinite = js_sys::Object::new();
    for (key, value) in [
        ("base", JsValue::from(30)),
        ("cap", JsValue::from(60)),
        ("attempts", JsValue::from(3)),
    ] {
        js_sys::Reflect::set(&infinite, &key.into(), &value).unwrap();
    }
    js_sys::Reflect::set(&infinite, &"multiplier".into(), &f64::INFINITY.into()).unwrap();
    assert_eq!(
        refusal(schedule(infinite.into())).1,
        "multiplier must be a number from 1 to 1000, got Infinity"
    );
    // Anything but a plain object is refused for what it is: serde read an array, a Map or a
    // Date as an object without keys ("attempts must be given").
    let refused_whole = [
        (JsValue::NULL, "null"),
        (JsValue::UNDEFINED, "undefined"),
        (js_sys::Array::new().into(), "an array"),
        (js_sys::Map::new().into(), "a Map"),
        (js_sys::Date::new_0().into(), "a Date"),
        (JsValue::from_f64(5.0), "5"),
    ];
    for (value, got) in refused_whole {
        let (field, message) = refusal(schedule(value));
        assert_eq!(
            (field.as_str(), message.as_str()),
            (
                "parameters",
                format!("parameters must be an object, such as {{ attempts: 14 }}, got {got}")
                    .as_str()
            )
        );
    }
    let (field, message) = refusal(schedule(params(
        r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 3, "mode": -1}"#,
    )));
    assert_eq!(field, "mode", "{message}");
    assert_eq!(
        message,
        "parameters: mode must be one of none, full, equal, decorrelated, proportional, got -1"
    );
    let (field, message) = refusal(schedule(params(
        r#"{"base": "30s", "multiplier": 3, "cap": "3h", "giveUp": "-1h"}"#,
    )));
    assert_eq!(field, "giveUp");
    assert!(message.starts_with("giveUp must be"), "{message}");
    // The other keys a refusal names are spelt as JavaScript passes them too.
    let (field, message) = refusal(schedule(params(
        r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 3, "giveUp": "1h"}"#,
    )));
    assert_eq!(field, "attempts");
    assert_eq!(
        message,
        "attempts must be given alone: choose attempts or giveUp, not both, got both attempts and giveUp"
    );
    // A formula needs its base, multiplier and cap; listed gaps do not.
    let (field, _) = refusal(schedule(params(r#"{"attempts": 3}"#)));
    assert_eq!(field, "base");
    assert!(schedule(params(r#"{"gaps": ["5s", "1m"], "attempts": 3}"#)).is_ok());

    // Durations: no text for a negative, infinite or NaN number of seconds.
    for bad in [-5.0, f64::NAN, f64::INFINITY] {
        let err: js_sys::Error = format_duration(JsValue::from(bad))
            .unwrap_err()
            .dyn_into()
            .unwrap();
        assert!(String::from(err.message()).starts_with("seconds must be a finite number"));
    }
    let err = parse_duration(JsValue::from("give-up"), JsValue::from("-5s")).map(JsValue::from);
    assert_eq!(refusal(err).0, "giveUp");
    // A name that is no parameter's key is `duration`, as the declarations say (`foo` was kept).
    for name in ["foo", "Base"] {
        let err = parse_duration(JsValue::from(name), JsValue::from("abc")).map(JsValue::from);
        assert_eq!(refusal(err).0, "duration", "{name}");
    }
}

#[wasm_bindgen_test]
fn presets_state_and_exports_through_the_js_api() {
    use backoff_lab::wasm::api::{export_schedule, presets};
    use backoff_lab::wasm::charts::{chart_svg, storm_svg};
    use backoff_lab::wasm::page::{decode_state, encode_state};
    let all = js_sys::Array::from(&presets().unwrap());
    assert_eq!(all.length(), 7);
    let svix = all
        .iter()
        .find(|p| js_sys::Reflect::get(p, &"name".into()).unwrap() == "svix")
        .unwrap();
    assert_eq!(
        js_sys::Reflect::get(&svix, &"give_up_text".into()).unwrap(),
        JsValue::from("27 h 35 min 5 s")
    );
    let svix_params = js_sys::Reflect::get(&svix, &"params".into()).unwrap();
    let report: ScheduleReport =
        serde_wasm_bindgen::from_value(schedule(svix_params).unwrap()).unwrap();
    assert_eq!(report.give_up_s, 99_305.0);

    let decoded = decode_state(JsValue::from("#base=1m&mode=%3Cb%3E")).unwrap();
    let notices = js_sys::Array::from(&js_sys::Reflect::get(&decoded, &"notices".into()).unwrap());
    assert_eq!(notices.length(), 1);
    let settings = js_sys::Reflect::get(&decoded, &"settings".into()).unwrap();
    assert_eq!(encode_state(settings).unwrap(), "base=1m");
    // A hash that is no string is refused by name: it read as an empty link, the defaults
    // without a notice.
    let err: js_sys::Error = decode_state(JsValue::from(5))
        .unwrap_err()
        .dyn_into()
        .unwrap();
    assert_eq!(
        String::from(err.message()),
        "hash must be text (a string), got 5"
    );
    // A key that is no setting is refused by name: a link would drop it without a word.
    let err: js_sys::Error = encode_state(params(r#"{"base": "1m", "giveUp": "2h"}"#))
        .unwrap_err()
        .dyn_into()
        .unwrap();
    assert_eq!(
        String::from(err.message()),
        "giveUp is not one of the settings: did you mean give-up?"
    );
    // Settings that are no object are refused for what they are ("expected a list" before).
    let err: js_sys::Error = encode_state(JsValue::NULL).unwrap_err().dyn_into().unwrap();
    assert_eq!(
        String::from(err.message()),
        "settings must be an object, such as { base: \"30s\" }, got null"
    );
    // A survival axis given as a list is refused whole, not as a list's item.
    let axes = params(r#"{"headroom": [1, 2]}"#);
    let err: js_sys::Error = backoff_lab::wasm::api::survival(params("{}"), axes)
        .unwrap_err()
        .dyn_into()
        .unwrap();
    assert_eq!(
        String::from(err.message()),
        "axes: headroom must be text (a string), got an array"
    );
    // A long value is quoted by its start and its length, not whole.
    let long = format!(
        r#"{{"base": "{}", "multiplier": 3, "cap": "3h", "attempts": 3}}"#,
        "x".repeat(100_000)
    );
    let (_, message) = refusal(schedule(params(&long)));
    assert!(
        message.ends_with("…\" (100,000 characters)"),
        "{}",
        message.len()
    );

    let csv = export_schedule(article_params(), JsValue::from("csv")).unwrap();
    assert_eq!(csv.lines().count(), 15);
    assert!(export_schedule(article_params(), JsValue::from("markdown"))
        .unwrap()
        .starts_with("| Attempt |"));
    assert!(export_schedule(article_params(), JsValue::from("xml")).is_err());
    let svg = chart_svg(
        JsValue::from("timeline"),
        article_params(),
        JsValue::UNDEFINED,
        JsValue::from(900.0),
        JsValue::from(320.0),
        JsValue::UNDEFINED,
    )
    .unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("gives up at 24 h 02 min"));
    // Described as `backoff-lab figure` describes it: the text for an <img>'s alt.
    assert!(
        svg.contains("<title>backoff-lab: retry timeline</title>"),
        "{svg}"
    );
    assert!(
        svg.contains("<desc>A retry timeline for a 30 s base, a ×3 multiplier and a 3 h cap"),
        "{svg}"
    );
    assert!(chart_svg(
        JsValue::from("pie"),
        article_params(),
        JsValue::UNDEFINED,
        JsValue::from(900.0),
        JsValue::from(320.0),
        JsValue::UNDEFINED
    )
    .is_err());
    assert!(chart_svg(
        JsValue::from("timeline"),
        article_params(),
        JsValue::UNDEFINED,
        JsValue::from(f64::NAN),
        JsValue::from(320.0),
        JsValue::UNDEFINED
    )
    .is_err());
    // Smaller than its legend and labels need: refused with the figure's range.
    let small = chart_svg(
        JsValue::from("timeline"),
        article_params(),
        JsValue::UNDEFINED,
        JsValue::from(100.0),
        JsValue::from(320.0),
        JsValue::UNDEFINED,
    )
    .unwrap_err();
    assert_eq!(
        js_sys::Error::from(small).message(),
        "width must be a whole number of pixels from 240 to 4000, got 100"
    );
    let series = params(
        r#"[{"label": "fixed", "params": {"base": 30, "multiplier": 3, "cap": 10800, "traffic": "20m", "engine": "fluid"}}]"#,
    );
    let storm = storm_svg(
        series,
        JsValue::UNDEFINED,
        JsValue::from(900.0),
        JsValue::from(420.0),
    )
    .unwrap();
    assert!(storm.contains("capacity 30/s = 1,800/min"));
    assert!(storm.contains("<desc>fixed: A 10 min outage"), "{storm}");
    // A series' parameters are read as every function reads its own: a misspelt key, a key on
    // the series itself and a value of the wrong type are refused naming their key (they were
    // ignored, or named the series' index).
    for (series, field) in [
        (
            r#"[{"label": "a", "params": {"atempts": 5, "engine": "fluid"}}]"#,
            "atempts",
        ),
        (
            r#"[{"label": "a", "colour": "red", "params": {"engine": "fluid"}}]"#,
            "colour",
        ),
        (
            r#"[{"label": "a", "params": {"multiplier": "3"}}]"#,
            "multiplier",
        ),
        (r#"[{"label": "a", "params": {"samples": 10}}]"#, "samples"),
    ] {
        let refused = storm_svg(
            params(series),
            JsValue::UNDEFINED,
            JsValue::from(900.0),
            JsValue::from(420.0),
        )
        .unwrap_err();
        assert_eq!(
            js_sys::Reflect::get(&refused, &"field".into()).unwrap(),
            JsValue::from(field),
            "{series}"
        );
    }
    // Drawn but not reported, a schedule's `window` is refused; so are `sampledMeanGiveUp`'s
    // deadline and percentile, which it has no sizing to read them for.
    let field_of = |error: JsValue| js_sys::Reflect::get(&error, &"field".into()).unwrap();
    let windowed =
        params(r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "window": 600}"#);
    let refused = chart_svg(
        JsValue::from("timeline"),
        article_params(),
        JsValue::UNDEFINED,
        JsValue::from(900.0),
        JsValue::from(320.0),
        windowed,
    )
    .unwrap_err();
    // Named as the argument at fault, `compare`, with its key in the message.
    assert_eq!(field_of(refused.clone()), JsValue::from("compare"));
    let message = String::from(js_sys::Error::from(refused).message());
    assert!(message.starts_with("compare: window "), "{message}");
    // A bad key of the compared schedule named `base`, as if of the first schedule.
    let _canvas = canvas("compare-test");
    let refused = backoff_lab::wasm::charts::draw_timeline(
        JsValue::from("compare-test"),
        article_params(),
        JsValue::UNDEFINED,
        params(r#"{"base": "x", "multiplier": 3, "cap": "3h", "attempts": 14}"#),
    )
    .unwrap_err();
    assert_eq!(field_of(refused.clone()), JsValue::from("compare"));
    let key = js_sys::Reflect::get(&refused, &"key".into()).unwrap();
    assert_eq!(key, JsValue::from("base"));
    let message = String::from(js_sys::Error::from(refused).message());
    assert!(
        message.starts_with("compare: base must be a duration"),
        "{message}"
    );

    let refused = backoff_lab::wasm::api::sampled_mean_give_up(params(
        r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "seed": 1, "samples": 100, "deadline": "6h"}"#,
    ))
    .unwrap_err();
    assert_eq!(field_of(refused), JsValue::from("deadline"));
    // A compared schedule is drawn by the timeline only: given to another chart, refused.
    let refused = chart_svg(
        JsValue::from("herd"),
        params(r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "seed": 1}"#),
        JsValue::UNDEFINED,
        JsValue::from(900.0),
        JsValue::from(320.0),
        article_params(),
    )
    .unwrap_err();
    assert_eq!(
        js_sys::Reflect::get(&refused, &"field".into()).unwrap(),
        JsValue::from("compare")
    );
    // So are chart options: `logscale` for `logScale` was drawn without a word.
    let refused = chart_svg(
        JsValue::from("timeline"),
        article_params(),
        params(r#"{"logscale": true}"#),
        JsValue::from(900.0),
        JsValue::from(320.0),
        JsValue::UNDEFINED,
    )
    .unwrap_err();
    assert_eq!(
        js_sys::Error::from(refused).message(),
        "logscale is not one of the chart options: did you mean logScale?"
    );
}

#[wasm_bindgen_test]
fn work_beyond_the_limits_is_refused_with_the_clis_messages() {
    use backoff_lab::wasm::api::{jitter, storm};
    let billion_draws = r#"{"base": 1, "multiplier": 1, "cap": 1, "attempts": 10000, "mode": "full", "seed": 1, "samples": 1000000}"#;
    // A storm too long for the fluid engine and too much work for the discrete one names its
    // attempts, with the most the fluid engine runs, as the CLI does (tests/cli/limits.rs).
    let too_long = r#"{"base": 0.000001, "multiplier": 1, "cap": 0.000001, "attempts": 10000, "arrivals": "20/s"}"#;
    let cases = [
        (
            jitter(params(billion_draws)),
            "samples",
            "samples must be at most 200020 for a schedule of 10000 attempts (samples × retries at most 2,000,000,000 drawn gaps), got 1000000",
        ),
        (
            storm(params(too_long)),
            "attempts",
            "attempts must be at most 8548 for this storm on the fluid or auto engine: the fluid engine takes at most 500,000,000 class-seconds (attempts × seconds simulated); or less traffic, as the discrete engine takes at most 1,000,000,000 attempts at worst (deliveries × attempts per delivery, refused before it starts), got 10000 (144000 deliveries × 10000 attempts)",
        ),
    ];
    for (result, field, message) in cases {
        let err: js_sys::Error = result.expect_err(message).dyn_into().unwrap();
        assert_eq!(String::from(err.message()), message);
        assert_eq!(
            js_sys::Reflect::get(&err, &"field".into()).unwrap(),
            JsValue::from(field)
        );
    }
}

#[wasm_bindgen_test]
fn exports_refuse_values_of_the_wrong_javascript_type_instead_of_trapping() {
    use backoff_lab::wasm::api::{format_duration, parse_duration};
    for wrong in [
        JsValue::from(30.0),
        JsValue::NULL,
        JsValue::TRUE,
        js_sys::Object::new().into(),
    ] {
        let err: js_sys::Error = parse_duration(JsValue::from("base"), wrong)
            .expect_err("not text")
            .dyn_into()
            .unwrap();
        assert!(
            String::from(err.message()).starts_with("base must be text (a string)"),
            "{:?}",
            err.message()
        );
    }
    assert!(format_duration(JsValue::from("thirty")).is_err());
    assert_eq!(format_duration(JsValue::from(90.0)).unwrap(), "90 s");
    let err = backoff_lab::wasm::charts::draw_timeline(
        JsValue::from(42.0),
        article_params(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    )
    .expect_err("a number is no canvas id");
    let err: js_sys::Error = err.dyn_into().unwrap();
    assert_eq!(
        String::from(err.message()),
        "canvas must be a <canvas> element of the document, or its id, got a value of type number"
    );
}

#[wasm_bindgen_test]
fn staleness_in_wasm_equals_native_and_draws() {
    use backoff_lab::staleness::StalenessReport;
    // Exact: the article's schedule after a 4 h outage (attempt 8 at 21,720 s).
    let exact = r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "mode": "none",
                    "tolerance": "6h", "outage": "4h"}"#;
    let js = backoff_lab::wasm::api::staleness(params(exact)).expect("valid question");
    let first = js_sys::Reflect::get(&js, &"outages".into())
        .and_then(|o| js_sys::Reflect::get(&o, &0.into()))
        .and_then(|o| js_sys::Reflect::get(&o, &"first_event".into()))
        .unwrap();
    assert_eq!(
        js_sys::Reflect::get(&first, &"lag_s".into()).unwrap(),
        JsValue::from(7_320.0)
    );
    assert_eq!(
        js_sys::Reflect::get(&first, &"attempt".into()).unwrap(),
        JsValue::from(8)
    );

    // Sampled from a seed: bit for bit the native report.
    let sampled = r#"{"gaps": ["5s", "5m", "30m", "2h", "5h", "10h", "10h"], "attempts": 8,
                      "mode": "full", "seed": 5, "samples": 3000, "tolerance": "24h", "maxLag": "1h"}"#;
    let from_wasm: StalenessReport =
        serde_wasm_bindgen::from_value(backoff_lab::wasm::api::staleness(params(sampled)).unwrap())
            .unwrap();
    let native_params: backoff_lab::Params = serde_json::from_str(sampled).unwrap();
    // What crosses to JavaScript (the spread behind the median stays in Rust).
    let native = native_params.staleness_report().unwrap();
    assert!(
        serde_json::to_value(&from_wasm).unwrap() == serde_json::to_value(&native).unwrap(),
        "the wasm report differs from the native one"
    );
    assert_eq!(from_wasm.seed, Some(5));

    let canvas = canvas("staleness-test");
    backoff_lab::wasm::charts::draw_staleness(
        JsValue::from("staleness-test"),
        params(exact),
        JsValue::UNDEFINED,
        JsValue::from("svix"),
    )
    .expect("drawn");
    assert!(painted_pixels(&canvas) > 0);

    let err = backoff_lab::wasm::api::staleness(params(
        r#"{"base": 30, "multiplier": 3, "cap": 10800, "attempts": 14, "tolerance": 0}"#,
    ))
    .expect_err("tolerance 0");
    assert!(err.is_instance_of::<js_sys::Error>());
    assert_eq!(
        js_sys::Reflect::get(&err, &"field".into()).unwrap(),
        JsValue::from("tolerance")
    );
}

/// A chart's computed step travels packed: `computeView` returns bytes, which draw the same
/// after the copy a move between threads makes (and from a typed array that is not this frame's
/// Uint8Array); bytes cut short or garbled, and a result given
/// as an object (only the survival map's rows may be), are refused with a message naming
/// `computed`, never drawn.
#[wasm_bindgen_test]
fn a_computed_result_travels_as_bytes_and_garbage_is_refused() {
    use backoff_lab::wasm::page::{compute_view, decode_state, view_svg, StormMemo};
    use js_sys::{Reflect, Uint8Array};
    let state = decode_state(
        "attempts=20&mode=decorrelated&deliveries=1000&base=1h&multiplier=10&cap=30d".into(),
    )
    .unwrap();
    let settings = Reflect::get(&state, &"settings".into()).unwrap();
    let computed = compute_view("herd".into(), settings.clone(), &mut StormMemo::new()).unwrap();
    let bytes = computed
        .dyn_into::<Uint8Array>()
        .expect("packed bytes")
        .to_vec();
    assert!(
        bytes.len() > 1_000,
        "a long histogram: {} bytes",
        bytes.len()
    );
    let svg = |computed: JsValue| {
        view_svg(
            "herd".into(),
            settings.clone(),
            computed,
            JsValue::UNDEFINED,
            800.into(),
            400.into(),
        )
    };
    let drawn = svg(Uint8Array::from(bytes.as_slice()).into()).expect("drawn");
    // A canvas narrower than a figure may be is exported at the narrowest figure.
    let narrow = view_svg(
        "herd".into(),
        settings.clone(),
        Uint8Array::from(bytes.as_slice()).into(),
        JsValue::UNDEFINED,
        180.4.into(),
        99.6.into(),
    )
    .expect("drawn within the figure's limits");
    assert!(
        narrow.contains(r#"width="240" height="160""#),
        "{narrow:.200}"
    );
    assert!(
        drawn.starts_with("<svg") && drawn.len() > 5_000,
        "a chart: {drawn:.80}"
    );
    assert!(
        drawn.contains("<title>backoff-lab: a herd of deliveries retrying together</title>"),
        "titled: {drawn:.300}"
    );
    assert_eq!(
        svg(Uint8Array::from(bytes.as_slice()).into()).expect("drawn again"),
        drawn
    );
    // What `instanceof Uint8Array` misses (a Uint8Array from another frame, here another typed
    // array holding the same bytes) is read as its bytes.
    let typed = js_sys::Float64Array::new(&Uint8Array::from(bytes.as_slice()));
    assert_eq!(svg(typed.into()).expect("drawn from a typed array"), drawn);

    let mut garbled = bytes.clone();
    garbled[0] = 200;
    for refused in [
        Uint8Array::from(&bytes[..bytes.len() / 2]).into(),
        Uint8Array::from(garbled.as_slice()).into(),
        Uint8Array::new_with_length(0).into(),
        js_sys::JSON::parse(r#"{"view":"herd","spread":{},"spike":{}}"#).unwrap(),
    ] {
        let error = svg(refused).expect_err("refused");
        let message = Reflect::get(&error, &"message".into())
            .unwrap()
            .as_string()
            .unwrap();
        assert!(
            message.starts_with("computed must be what computeView returned"),
            "{message}"
        );
    }
}

/// Outside review of the JS API: a jittered `staleness` without a seed reported seed 0 on every
/// call (the CLI draws a fresh one and says it); a million-character key took seconds to refuse
/// (its distance to every field was measured) and was quoted whole; a million-character canvas
/// id lost its closing quote.
#[wasm_bindgen_test]
fn fresh_seeds_and_long_text_at_the_js_boundary() {
    let jittered = r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "mode": "full",
                       "samples": 1000, "outage": "4h"}"#;
    let seed = |json: &str| {
        let report = backoff_lab::wasm::api::staleness(params(json)).expect("valid question");
        js_sys::Reflect::get(&report, &"seed".into())
            .unwrap()
            .as_f64()
    };
    let (first, second) = (seed(jittered), seed(jittered));
    assert!(
        first.is_some_and(|s| s != 0.0) && first != second,
        "{first:?} {second:?}"
    );
    let exact = r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "mode": "none",
                    "outage": "4h"}"#;
    assert_eq!(seed(exact), None, "nothing is drawn without jitter");

    let long_key = "k".repeat(1_000_000);
    let with_long_key = article_params();
    js_sys::Reflect::set(&with_long_key, &long_key.as_str().into(), &1.into()).unwrap();
    let (field, message) = refusal(schedule(with_long_key));
    assert!(
        field.starts_with("kkkk") && field.ends_with("(1,000,000 characters)"),
        "{}",
        &field[..field.len().min(200)]
    );
    assert!(message.len() < 1_000, "{} bytes", message.len());

    // A number as JavaScript writes it: `1e+308`, not its 309 digits.
    let (_, message) = refusal(backoff_lab::wasm::api::storm(params(r#"{"pause": 1e308}"#)));
    assert!(message.ends_with("got 1e+308"), "{message}");

    let long_id = "x".repeat(1_000_000);
    let (_, message) = refusal(draw_timeline(
        JsValue::from(long_id.as_str()),
        article_params(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ));
    assert!(
        message.ends_with("…\" (1,000,000 characters), the id of no element"),
        "{}",
        &message[message.len().saturating_sub(200)..]
    );
}

/// A `BigInt` is refused by every key, naming it and written as JavaScript writes it
/// (`base: 10n` was read as 10 s, while `attempts: 14n` was refused in Rust's words).
#[wasm_bindgen_test]
fn a_bigint_is_refused_by_every_key() {
    let with = |key: &str, value: JsValue| {
        let object = article_params();
        js_sys::Reflect::set(&object, &key.into(), &value).unwrap();
        object
    };
    let ten = || JsValue::from(js_sys::BigInt::from(10));
    for (key, value, expected) in [
        ("base", ten(), "parameters: base must not be a BigInt, got 10n"),
        ("attempts", ten(), "parameters: attempts must be a whole number from 1 to 10000, got 10n (a BigInt: pass a number)"),
        ("seed", ten(), "parameters: seed must be a whole number from 0 to 9007199254740991, got 10n (a BigInt: pass a number)"),
        ("gaps", js_sys::Array::of1(&ten()).into(), "parameters: gaps must not be a BigInt, got 10n"),
    ] {
        let (field, message) = refusal(schedule(with(key, value)).map(JsValue::from));
        assert_eq!((field.as_str(), message.as_str()), (key, expected));
    }
    let storm = backoff_lab::wasm::api::storm(with("arrivals", ten()));
    let (field, message) = refusal(storm.map(JsValue::from));
    assert_eq!(field, "arrivals", "{message}");
}

/// Refusals at the JS boundary quote the value as JavaScript writes it and name the key: a
/// string given for seconds (`got a value of type string`), a series without its `params`
/// (serde's "missing field `params`"), and a key serde reads that `Object.keys` does not list
/// (defined not enumerable: "parameters must be a number", naming no key).
#[wasm_bindgen_test]
fn boundary_refusals_quote_the_value_and_name_the_key() {
    let (field, message) =
        refusal(backoff_lab::wasm::api::format_duration(JsValue::from("3")).map(JsValue::from));
    assert_eq!(
        (field.as_str(), message.as_str()),
        ("seconds", "seconds must be a number, got \"3\"")
    );
    let series = js_sys::Array::of1(&params(r#"{"label": "yours"}"#));
    let (field, message) = refusal(backoff_lab::wasm::charts::draw_storm(
        JsValue::from("nowhere"),
        series.into(),
        JsValue::UNDEFINED,
    ));
    assert_eq!(field, "params", "{message}");
    assert!(message.ends_with("params must be given"), "{message}");
    // A field not given is not blamed: `dark` (a plain boolean) took the blame for `scale`.
    for (options, key) in [
        (r#"{"scale": "2"}"#, "scale"),
        (r#"{"logScale": "yes"}"#, "logScale"),
    ] {
        let series = js_sys::Array::of1(&params(r#"{"label": "yours", "params": {}}"#));
        let (field, message) = refusal(backoff_lab::wasm::charts::draw_storm(
            JsValue::from("nowhere"),
            series.into(),
            params(options),
        ));
        assert_eq!(field, key, "{message}");
    }
    // A list of gaps far too long is refused by its length with the core's message, now before
    // it is read item by item (not timed here: 10,000,000 gaps took 1.4 s), spelt as
    // JavaScript's keys (`thenEvery`: it had said the CLI's `then-every`).
    let long = params(r#"{"attempts": 3}"#);
    let gaps = js_sys::Array::new_with_length(100_000);
    gaps.fill(&JsValue::from(1.0), 0, 100_000);
    js_sys::Reflect::set(&long, &"gaps".into(), &gaps).unwrap();
    let (field, message) = refusal(schedule(long).map(JsValue::from));
    assert_eq!(
        (field.as_str(), message.as_str()),
        (
            "gaps",
            "gaps must be a list of 1 to 32 gaps (add a tail with thenEvery for more), got \
             100000 gaps"
        )
    );
    let hidden = params(r#"{"base": "30s", "cap": "3h", "attempts": 14}"#);
    let descriptor = params(r#"{"value": "zzz", "enumerable": false}"#);
    js_sys::Object::define_property(
        hidden.unchecked_ref::<js_sys::Object>(),
        &"multiplier".into(),
        descriptor.unchecked_ref::<js_sys::Object>(),
    );
    let (field, message) = refusal(schedule(hidden).map(JsValue::from));
    assert_eq!(field, "multiplier", "{message}");
    assert_eq!(
        message,
        "parameters: multiplier must be a number from 1 to 1000, got \"zzz\""
    );
}
