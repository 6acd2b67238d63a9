//! Between JavaScript values and the core's types: every export takes what JavaScript can pass
//! and answers with a value or an `Error` naming the field, never a trap.

use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::chart::ChartOptions;
use crate::page::PageError;
use crate::Error;

/// A JS `Error` carrying the message and, when there is one, the field it is about.
pub fn js_error(error: &Error) -> JsValue {
    let field = match error {
        Error::OutOfRange { field, .. } | Error::BadDuration { field, .. } => Some(*field),
        _ => None,
    };
    error_with(&error.to_string(), "field", field)
}

/// A JS `Error` for the page: the message and the setting (control) it is about.
pub fn page_error(error: &PageError) -> JsValue {
    let js = error_with(&error.message, "setting", error.setting);
    if error.chart_limit {
        // As above: a fresh Error object takes the property.
        let _ = js_sys::Reflect::set(&js, &"chartLimit".into(), &true.into());
    }
    js
}

fn error_with(message: &str, property: &str, value: Option<&str>) -> JsValue {
    let js = js_sys::Error::new(message);
    if let Some(value) = value {
        // Setting a property on a fresh Error object cannot fail.
        let _ = js_sys::Reflect::set(&js, &property.into(), &value.into());
    }
    js.into()
}

/// [`from_js`] for the JS API's own inputs (parameters, axes, series): a key the struct `T`
/// does not have is refused by name, as a misspelt `atempts` would otherwise be ignored
/// (serde-wasm-bindgen reads only the fields it knows). Not for the page's own values, whose
/// tags (`view`) are no fields.
pub fn checked_from_js<T: serde::de::DeserializeOwned>(
    what: &str,
    value: JsValue,
) -> Result<T, JsValue> {
    let fields = crate::field_names::of::<T>();
    if !fields.is_empty() {
        refuse_all_but_plain_objects(what, &value)?;
    }
    refuse_unknown_keys(what, &value, fields)?;
    let params_keys = fields == crate::field_names::of::<crate::Params>();
    if params_keys {
        // Before a list of millions is read item by item (1.4 s for 10,000,000 gaps).
        let gaps = js_sys::Reflect::get(&value, &"gaps".into()).unwrap_or(JsValue::UNDEFINED);
        if let Some(list) = gaps.dyn_ref::<js_sys::Array>() {
            let count = list.length() as usize;
            if count > crate::policy::MAX_EXPLICIT_GAPS {
                return Err(api_error(&crate::policy::gap_count_refused(count)));
            }
        }
    }
    refuse_bigints(what, &value, fields)?;
    read_js(what, value, (fields, params_keys))
}

/// Refuses, for a struct's fields, anything but a plain object (`{ attempts: 14 }`): serde
/// reads an array, a `Map` or a `Date` as an object without keys, which was then refused for a
/// missing field ("attempts must be given") rather than for what it is.
pub fn refuse_all_but_plain_objects(what: &str, value: &JsValue) -> Result<(), JsValue> {
    let got = described(value);
    if got == "an object" {
        return Ok(());
    }
    let example = match what {
        "axes" => "{ steps: \"12x8\" }",
        "settings" => "{ base: \"30s\" }",
        _ => "{ attempts: 14 }",
    };
    Err(error_with(
        &format!("{what} must be an object, such as {example}, got {got}"),
        "field",
        Some(camel_case(what).as_str()),
    ))
}

/// Refuses a `BigInt` among the values of `fields` in the object `value` (or the items of a
/// list there): serde-wasm-bindgen read one within 64 bits as a number for some keys (`base:
/// 10n` was 10 s) and refused it for others (`attempts: 14n`), in Rust's words.
fn refuse_bigints(what: &str, value: &JsValue, fields: &[&str]) -> Result<(), JsValue> {
    for key in fields {
        let given = js_sys::Reflect::get(value, &(*key).into()).unwrap_or(JsValue::UNDEFINED);
        let items = match given.dyn_ref::<js_sys::Array>() {
            Some(list) => list.iter().collect(),
            None => vec![given],
        };
        if let Some(bigint) = items.iter().find(|item| item.is_bigint()) {
            // The range where the key has one in words; else only what it must not be (`dark`
            // is a boolean, `base` a number or text: "a number or text" misled for the one).
            let message = match crate::params::expected_value(key) {
                Some(expected) => format!(
                    "{what}: {key} must be {expected}, got {} (a BigInt: pass a number)",
                    described(bigint)
                ),
                None => format!(
                    "{what}: {key} must not be a BigInt, got {}",
                    described(bigint)
                ),
            };
            return Err(error_with(&message, "field", Some(key)));
        }
    }
    Ok(())
}

/// A JS value as a refusal quotes it: a number as JavaScript writes it (`3`, `NaN`,
/// `Infinity`), text quoted, `null`, `true`, "an array", "an object" (a plain one), "a Map".
fn described(value: &JsValue) -> String {
    if value.is_undefined() {
        "undefined".to_string()
    } else if value.is_null() {
        "null".to_string()
    } else if js_sys::Array::is_array(value) {
        "an array".to_string()
    } else if value.is_object() {
        // A plain object's constructor is `Object` (or none, for `Object.create(null)`).
        let constructor = js_sys::Reflect::get(value, &"constructor".into())
            .ok()
            .and_then(|c| c.dyn_into::<js_sys::Function>().ok())
            .map(|c| String::from(c.name()));
        match constructor.as_deref() {
            None | Some("Object") => "an object".to_string(),
            Some("") => "an instance of a class".to_string(),
            Some(name) => format!("a {name}"),
        }
    } else if let Some(number) = value.as_f64() {
        js_number(number)
    } else if let Some(text) = value.as_string() {
        crate::error::quoted(&text)
    } else if let Some(flag) = value.as_bool() {
        flag.to_string()
    } else if value.is_bigint() {
        // As JavaScript writes a BigInt literal: `10n`.
        let digits = js_sys::BigInt::unchecked_from_js_ref(value).to_string(10);
        format!("{}n", digits.map(String::from).unwrap_or_default())
    } else {
        js_type(value)
    }
}

/// A number as JavaScript writes it, by JavaScript's own `Number.prototype.toString`:
/// `Infinity` (Rust writes `inf`), `1e+308` (Rust writes all 309 digits).
fn js_number(number: f64) -> String {
    String::from(
        js_sys::Number::from(number)
            .to_string_with_radix(10)
            .unwrap_or_else(|_| {
                // Radix 10 is always valid.
                js_sys::JsString::from(number.to_string())
            }),
    )
}

/// A plain JS object (or array) as `T`; anything else names `what` and what was wrong. A value
/// of the wrong type names its key (`multiplier: "3"`).
pub fn from_js<T: serde::de::DeserializeOwned>(what: &str, value: JsValue) -> Result<T, JsValue> {
    read_js(what, value, (&[], false))
}

/// [`from_js`]; `fields`, `T`'s fields where the caller knows them (else empty: the object's
/// own keys are searched); `params_keys` when `T` has the JS API's parameters, whose ranges a value
/// of the wrong type is told ([`crate::params::expected_value`]). Only the read and the search
/// for the refused key are generic: what is said is not, so that it is built once in the wasm.
fn read_js<T: serde::de::DeserializeOwned>(
    what: &str,
    value: JsValue,
    (fields, params_keys): (&[&str], bool),
) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value(value.clone()).map_err(|err| {
        // serde-wasm-bindgen's errors are JavaScript errors ("Error: invalid type ..."), and a
        // list given as text fails in `Reflect.get`.
        let inner = err.to_string();
        let inner = match inner.strip_prefix("Error: ") {
            Some(rest) => rest.to_string(),
            None if inner.contains("Reflect.get called on non-object") => {
                LIST_GIVEN_AS_OTHER.to_string()
            }
            None => inner,
        };
        // serde's "missing field `params`", in this crate's words.
        let inner =
            match (inner.strip_prefix("missing field `")).and_then(|rest| rest.strip_suffix('`')) {
                Some(key) => format!("{key} must be given"),
                None => inner,
            };
        // The core's own messages start with the field ("seed must be ..."): keep it.
        let field = match inner.split_once(" must be ") {
            Some((field, _)) => Some(field.to_string()),
            None => key_refused::<T>(&value, fields),
        };
        // Whether the key holds a list (`gaps`): then an array's item may be what is refused.
        let list = field.as_deref().is_some_and(|key| {
            let probe = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&probe, &key.into(), &js_sys::Array::new());
            serde_wasm_bindgen::from_value::<T>(probe.into())
                .map_or_else(|err| !err.to_string().contains("invalid type"), |_| true)
        });
        refused(what, &value, &inner, field, (params_keys, list))
    })
}

/// The refusal of `value` (as `what`) for serde's `inner`, about `field` when one is known.
fn refused(
    what: &str,
    value: &JsValue,
    inner: &str,
    field: Option<String>,
    (params_keys, list): (bool, bool),
) -> JsValue {
    if let Some(message) =
        (field.as_deref()).and_then(|key| wrong_type(inner, value, key, (params_keys, list)))
    {
        let key = field.unwrap_or_default();
        return error_with(&format!("{what}: {message}"), "field", Some(key.as_str()));
    }
    let inner = plain_words(inner);
    let message = match &field {
        Some(key) if inner.starts_with("must be") => format!("{what}: {key} {inner}"),
        Some(key) if !inner.starts_with(key.as_str()) => format!("{what}: {key}: {inner}"),
        None if inner.starts_with("must be") => format!("{what} {inner}"),
        _ => format!("{what}: {inner}"),
    };
    // Without a key of its own, the refusal is of the whole value: `what` names it.
    let field = field.unwrap_or_else(|| what.to_string());
    error_with(&message, "field", Some(camel_case(&field).as_str()))
}

/// serde-wasm-bindgen's refusal of a list given as something else (it fails in `Reflect.get`).
const LIST_GIVEN_AS_OTHER: &str = "invalid type: expected a list (an array)";

/// serde's refusal `inner` of the value of `key` in `value` for its type, in this crate's words
/// with what the key holds: `multiplier must be a number from 1 to 1000, got "3"` (the range as
/// the core's own refusals say it, for the parameters), `gaps must be a list (an array), got
/// 5`, and for an item of a list `gaps: each item must be a number or text, got an object`.
/// `None` when `inner` is no type error.
fn wrong_type(
    inner: &str,
    value: &JsValue,
    key: &str,
    (params_keys, list): (bool, bool),
) -> Option<String> {
    let (got, expected) = if inner == LIST_GIVEN_AS_OTHER {
        ("", "a sequence")
    } else if inner.contains("BigInt") {
        // serde-wasm-bindgen reads a BigInt only within 64 bits, and says so in Rust's words.
        ("", "f64")
    } else {
        inner
            .strip_prefix("invalid type: ")?
            .split_once(", expected ")?
    };
    let given = js_sys::Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED);
    // An item of a list is refused (serde says of what kind: the list itself is fine).
    if list && js_sys::Array::is_array(&given) && expected != "a sequence" {
        return Some(format!(
            "{key}: each item must be {}, got {}",
            expected_in_words(expected),
            got_in_words(got)
        ));
    }
    let expected = (params_keys)
        .then(|| crate::params::expected_value(key))
        .flatten()
        .unwrap_or_else(|| expected_in_words(expected).to_string());
    Some(format!(
        "{key} must be {expected}, got {}",
        described(&given)
    ))
}

/// serde's "invalid type: floating point `-1.0`, expected a string" in this crate's words:
/// "must be text (a string), got -1.0" ("got null" for `null`, "an object" for a struct or a
/// map).
fn plain_words(inner: &str) -> String {
    if inner == LIST_GIVEN_AS_OTHER {
        return "must be a list (an array)".to_string();
    }
    let Some((got, expected)) = inner
        .strip_prefix("invalid type: ")
        .and_then(|rest| rest.split_once(", expected "))
    else {
        return inner.to_string();
    };
    format!(
        "must be {}, got {}",
        expected_in_words(expected),
        got_in_words(got)
    )
}

/// What serde expected ("f64", "a sequence", "struct Params"), as a JavaScript caller knows it.
fn expected_in_words(expected: &str) -> &str {
    match expected {
        number if number == "f64" || number.starts_with("u32") || number.starts_with("u64") => {
            "a number"
        }
        "a sequence" => "a list (an array)",
        "a string" => "text (a string)",
        "a boolean" => "true or false",
        struct_or_map
            if struct_or_map.starts_with("struct ") || struct_or_map.starts_with("a map") =>
        {
            "an object"
        }
        other => other,
    }
}

/// What serde says it got ("map", "floating point `-1.0`", "JsValue([1])"), as JavaScript
/// writes it: "an object", "-1.0", "an array".
fn got_in_words(got: &str) -> String {
    match got {
        "map" => "an object".to_string(),
        "sequence" => "an array".to_string(),
        "unit value" => "null".to_string(),
        array if array.starts_with("JsValue([") => "an array".to_string(),
        other if other.starts_with("JsValue(") => "a value of another kind".to_string(),
        got => {
            let shown = got.replace('`', "");
            ["floating point ", "integer ", "string ", "boolean "]
                .iter()
                .find_map(|kind| shown.strip_prefix(kind).map(str::to_string))
                .unwrap_or(shown)
        }
    }
}

/// The key of the object `value` whose value alone `T` refuses (serde's type errors do not say
/// which field): each key is tried on its own, where a missing other field is no refusal. (A
/// wrapper that tracks the path, `serde_path_to_error`, added 10 KB to the gzipped wasm.)
fn key_refused<T: serde::de::DeserializeOwned>(value: &JsValue, fields: &[&str]) -> Option<String> {
    keys_with_values(value.dyn_ref()?, fields)
        .into_iter()
        .find(
            |(_, alone)| match serde_wasm_bindgen::from_value::<T>(alone.clone()) {
                Err(err) => !err.to_string().contains("missing field"),
                Ok(_) => false,
            },
        )
        .map(|(key, _)| key)
}

/// Each key of `object` to try alone, with an object holding it alone: the struct's own
/// `fields` where the caller knows them (serde reads those by name, inherited or not
/// enumerable too: a multiplier defined with `Object.defineProperty` was refused as
/// "parameters must be a number", naming no key), else the object's own keys. Not generic, so
/// that it is in the wasm once.
fn keys_with_values(object: &js_sys::Object, fields: &[&str]) -> Vec<(String, JsValue)> {
    let keys: Vec<String> = if fields.is_empty() {
        let keys = js_sys::Object::keys(object);
        keys.iter().filter_map(|key| key.as_string()).collect()
    } else {
        fields.iter().map(|field| field.to_string()).collect()
    };
    keys.into_iter()
        .filter_map(|key| {
            let field = JsValue::from(key.as_str());
            // A field the caller did not give is no refusal of theirs: tried as `undefined`,
            // a plain `bool` field (`dark`) took the blame for a bad `scale`.
            let one = js_sys::Reflect::get(object, &field).unwrap_or(JsValue::UNDEFINED);
            if one.is_undefined() {
                return None;
            }
            let alone = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&alone, &field, &one);
            Some((key, alone.into()))
        })
        .collect()
}

/// Refuses a key of the object `value` that is not one of `fields` (a struct's; nothing is
/// refused when there are none), naming the key and the nearest field or, with the camelCase
/// spelling, the field it means.
pub fn refuse_unknown_keys(what: &str, value: &JsValue, fields: &[&str]) -> Result<(), JsValue> {
    let Some(object) = value
        .dyn_ref::<js_sys::Object>()
        .filter(|_| !fields.is_empty())
    else {
        return Ok(());
    };
    let keys = js_sys::Object::keys(object);
    for key in keys.iter().filter_map(|key| key.as_string()) {
        if fields.contains(&key.as_str()) {
            continue;
        }
        let camel = camel_case(&key);
        // Near enough to be a slip (`atempts`, `giveUp` for `give-up`), not another word.
        let near = crate::spelling::nearest(&key, fields);
        let hint = if fields.contains(&camel.as_str()) {
            format!("write {camel}")
        } else if let Some(near) = near {
            format!("did you mean {near}?")
        } else {
            format!("the {what} are {}", fields.join(", "))
        };
        // A long key is quoted by its start and length, in the message and as the field.
        let key = crate::error::cut_short(&key);
        return Err(error_with(
            &format!("{key} is not one of the {what}: {hint}"),
            "field",
            Some(&key),
        ));
    }
    Ok(())
}

/// `give-up` or `give_up` as JavaScript spells the key: `giveUp`.
pub fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '-' || c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `error` (from [`api_error`] or [`text`]) about `from` as about `to`: its message's opening
/// word and its `field`.
pub fn renamed(error: JsValue, from: &str, to: &str) -> JsValue {
    let message = js_sys::Reflect::get(&error, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_default();
    about_key(message, from, to)
}

/// A JS `Error` whose `message` opens with `field` (the core's messages do): about `key`, the
/// message opening with it too.
fn about_key(message: String, field: &str, key: &str) -> JsValue {
    let message = match message.strip_prefix(field) {
        Some(rest) => format!("{key}{rest}"),
        None => message,
    };
    error_with(&message, "field", Some(key))
}

/// A JS `Error` for the JS API: [`js_error`] with `field` spelt as the key JavaScript passes
/// (`giveUp`, not the CLI's `give-up`).
pub fn api_error(error: &Error) -> JsValue {
    // An infinite value is written as JavaScript writes it by the core itself.
    let message = crate::field_names::in_js_spelling(&error.to_string());
    match error {
        Error::OutOfRange { field, .. } | Error::BadDuration { field, .. } => {
            about_key(message, field, &camel_case(field))
        }
        _ => error_with(&message, "field", None),
    }
}

/// A value as JS: `None` becomes `null` (not `undefined`), as in the CLI's JSON.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|err| js_sys::Error::new(&err.to_string()).into())
}

/// A string argument; a number, `null` or an object is refused by name instead of trapping.
pub fn text(field: &'static str, value: &JsValue) -> Result<String, JsValue> {
    // Quoted as JavaScript writes it, as the parameters' refusals are (`got 3`, `got null`).
    value.as_string().ok_or_else(|| {
        js_error(&Error::out_of_range(
            field,
            described(value),
            "text (a string)",
        ))
    })
}

/// A number argument; anything else is refused by name.
pub fn number(field: &'static str, value: &JsValue) -> Result<f64, JsValue> {
    value
        .as_f64()
        .ok_or_else(|| js_error(&Error::out_of_range(field, described(value), "a number")))
}

pub fn js_type(value: &JsValue) -> String {
    match value.js_typeof().as_string() {
        Some(_) if value.is_null() => "null".to_string(),
        Some(kind) => format!("a value of type {kind}"),
        None => "a value of unknown type".into(),
    }
}

/// `undefined` and `null` as `None`.
pub fn optional(value: JsValue) -> Option<JsValue> {
    (!value.is_undefined() && !value.is_null()).then_some(value)
}

/// Chart options; `undefined` or `null` for the defaults.
pub fn chart_options(options: JsValue) -> Result<ChartOptions, JsValue> {
    match optional(options) {
        None => Ok(ChartOptions::default()),
        Some(options) => checked_from_js::<ChartOptions>("chart options", options)?
            .validated()
            .map_err(|e| js_error(&e)),
    }
}

/// The SVG size: whole pixels, 240 to 4000 wide and 160 to 4000 high ([`figure_size`]).
///
/// [`figure_size`]: crate::chart::figure_size
pub fn svg_size(width: &JsValue, height: &JsValue) -> Result<(u32, u32), JsValue> {
    sized(width, height, crate::chart::figure_size)
}

/// `size` of the width and height given (what is no number read as NaN, which `size` refuses
/// with the range); a refusal quotes the value given as JavaScript writes it.
fn sized(
    width: &JsValue,
    height: &JsValue,
    size: fn(f64, f64) -> Result<(u32, u32), Error>,
) -> Result<(u32, u32), JsValue> {
    let read = |value: &JsValue| value.as_f64().unwrap_or(f64::NAN);
    size(read(width), read(height)).map_err(|error| {
        let mut message = error.to_string();
        let given = if message.starts_with("width") {
            width
        } else {
            height
        };
        if let Some(range) = message.strip_suffix(", got NaN") {
            message = format!("{range}, got {}", described(given));
        }
        let field = message.split(' ').next().unwrap_or_default().to_string();
        error_with(&message, "field", Some(&field))
    })
}

/// A canvas's size for its SVG export, brought within the figure's limits
/// ([`figure_size_within`]).
///
/// [`figure_size_within`]: crate::chart::figure_size_within
pub fn canvas_svg_size(width: &JsValue, height: &JsValue) -> Result<(u32, u32), JsValue> {
    sized(width, height, crate::chart::figure_size_within)
}

/// A `Computed` from JS: the bytes `computeView` packed, or a survival map assembled from its
/// rows (`{ view: "survival", rows }`: the page's workers compute the rows in pieces) or the
/// timeline's `{ view: "timeline" }`, which carry no result of their own to pack.
pub fn computed_from_js(value: JsValue) -> Result<crate::page::Computed, JsValue> {
    use crate::page::Computed;
    if js_sys::ArrayBuffer::is_view(&value) {
        // A Uint8Array from another frame fails `instanceof`: its elements as bytes (any typed
        // array's are; unless they are a packed result's bytes, they are refused).
        let bytes = value
            .dyn_into::<js_sys::Uint8Array>()
            .unwrap_or_else(|other| js_sys::Uint8Array::new(&other));
        return crate::page::unpack(&bytes.to_vec()).map_err(|e| js_error(&e));
    }
    #[derive(serde::Deserialize)]
    struct Survival {
        rows: Vec<crate::survival::Row>,
    }
    let view = js_sys::Reflect::get(&value, &"view".into())
        .ok()
        .and_then(|v| v.as_string());
    match view.as_deref() {
        Some("timeline") => Ok(Computed::Timeline),
        Some("survival") => {
            from_js::<Survival>("computed", value).map(|s| Computed::Survival { rows: s.rows })
        }
        _ => Err(js_sys::Error::new(
            "computed must be what computeView returned (packed bytes), or { view: \"survival\", rows } of the survival map's rows",
        )
        .into()),
    }
}
