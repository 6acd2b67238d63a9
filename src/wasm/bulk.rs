//! Long arrays of numbers from JavaScript, read in bulk. serde reads an array a number at a
//! time, each a call across the wasm boundary: a herd's first-retry histograms (up to 100,000
//! bins each for the spread and the spike) made its first drawing on the page take 35-45 ms of
//! the main thread, 22-29 ms read in bulk. Here JavaScript checks and copies the whole array in
//! two calls.

use js_sys::{Array, Float64Array, Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::herd::Herd;

/// The largest whole number a JavaScript number holds exactly.
const MAX_EXACT: f64 = 9_007_199_254_740_992.0;

/// The herd report `computed[key]`, its `first_retry_per_second` read in bulk; `None` when that
/// is not an array of whole numbers from 0 to 2^53 (or the report not an object), for serde's
/// reading to say what is wrong.
pub fn herd(computed: &JsValue, key: &str) -> Option<Result<Box<Herd>, JsValue>> {
    let report = Reflect::get(computed, &key.into())
        .ok()?
        .dyn_into::<Object>()
        .ok()?;
    let field = JsValue::from_str("first_retry_per_second");
    let bins = counts(&Reflect::get(&report, &field).ok()?)?;
    // The rest of the report, small, through serde as usual: a copy without the histogram.
    let rest = Object::assign(&Object::new(), &report);
    Reflect::set(&rest, &field, &Array::new()).ok()?;
    Some(
        super::convert::from_js::<Box<Herd>>("computed", rest.into()).map(|mut herd| {
            herd.first_retry_per_second = bins;
            herd
        }),
    )
}

/// `value` as counts, if it is an array of whole numbers from 0 to 2^53.
fn counts(value: &JsValue) -> Option<Vec<u64>> {
    let array = value.dyn_ref::<Array>()?;
    // `array.every(Number.isInteger)`, in JavaScript: false for anything but a finite whole
    // number (a string, null, 1.5, NaN), which `Float64Array` would otherwise convert.
    let number = Reflect::get(&js_sys::global(), &"Number".into()).ok()?;
    let is_integer: Function = Reflect::get(&number, &"isInteger".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let every: Function = Reflect::get(array, &"every".into()).ok()?.dyn_into().ok()?;
    if !every.call1(array, &is_integer).ok()?.as_bool()? {
        return None;
    }
    Float64Array::new(array)
        .to_vec()
        .into_iter()
        .map(|n| (0.0..=MAX_EXACT).contains(&n).then_some(n as u64))
        .collect()
}
