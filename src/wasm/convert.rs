//! Between JavaScript values and the core's types: every export takes what JavaScript can pass
//! and answers with a value or an `Error` naming the field, never a trap.

use serde::Serialize;
use wasm_bindgen::prelude::*;

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
    error_with(&error.message, "setting", error.setting)
}

fn error_with(message: &str, property: &str, value: Option<&str>) -> JsValue {
    let js = js_sys::Error::new(message);
    if let Some(value) = value {
        // Setting a property on a fresh Error object cannot fail.
        let _ = js_sys::Reflect::set(&js, &property.into(), &value.into());
    }
    js.into()
}

/// A plain JS object (or array) as `T`; anything else names `what` and what was wrong.
pub fn from_js<T: serde::de::DeserializeOwned>(what: &str, value: JsValue) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value(value).map_err(|err| {
        // The core's own messages start with the field ("seed must be ..."): keep it.
        let message = err.to_string();
        let field = message
            .split_once(" must be ")
            .map(|(field, _)| field.to_string());
        let js = js_sys::Error::new(&format!("{what}: {message}"));
        if let Some(field) = field {
            let _ = js_sys::Reflect::set(&js, &"field".into(), &field.into());
        }
        js.into()
    })
}

/// A value as JS: `None` becomes `null` (not `undefined`), as in the CLI's JSON.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|err| js_sys::Error::new(&err.to_string()).into())
}

/// A string argument; a number, `null` or an object is refused by name instead of trapping.
pub fn text(field: &'static str, value: &JsValue) -> Result<String, JsValue> {
    value.as_string().ok_or_else(|| {
        js_error(&Error::out_of_range(
            field,
            js_type(value),
            "text (a string)",
        ))
    })
}

/// A number argument; anything else is refused by name.
pub fn number(field: &'static str, value: &JsValue) -> Result<f64, JsValue> {
    value
        .as_f64()
        .ok_or_else(|| js_error(&Error::out_of_range(field, js_type(value), "a number")))
}

fn js_type(value: &JsValue) -> String {
    match value.js_typeof().as_string() {
        Some(kind) if value.is_null() => format!("null (not {kind} text)"),
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
        Some(options) => from_js::<ChartOptions>("chart options", options)?
            .validated()
            .map_err(|e| js_error(&e)),
    }
}

/// The SVG size, 100 to 4000 pixels each way.
pub fn svg_size(width: &JsValue, height: &JsValue) -> Result<(u32, u32), JsValue> {
    let mut size = [0u32; 2];
    for (slot, (field, value)) in size.iter_mut().zip([("width", width), ("height", height)]) {
        let pixels = number(field, value)?;
        if !(pixels.is_finite() && (100.0..=4_000.0).contains(&pixels)) {
            return Err(js_error(&Error::out_of_range(
                field,
                pixels,
                "a number of pixels from 100 to 4000",
            )));
        }
        *slot = pixels as u32;
    }
    Ok((size[0], size[1]))
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
