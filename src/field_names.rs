//! The field names a struct deserializes, as serde's derive spells them (renames applied): for
//! refusing keys a struct does not have where the deserializer itself never sees them, and for
//! spelling the parameters a core message names as the JS API's keys ([`in_js_spelling`]).

use serde::de::{self, Deserialize, Visitor};

/// The names of `T`'s fields, or none when `T` is not a struct.
pub(crate) fn of<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    // The deserializer stops at the struct's field list: the error is expected.
    let _ = T::deserialize(FieldNames(&mut fields));
    fields
}

/// A deserializer that records the field list a struct asks for, then stops.
struct FieldNames<'a>(&'a mut &'static [&'static str]);

impl<'de> de::Deserializer<'de> for FieldNames<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        Err(de::Error::custom("fields recorded"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// Words after a hyphenated key that make it prose rather than the key: "a give-up time".
const PROSE_AFTER: [&str; 4] = ["time", "times", "deadline", "distribution"];

/// The core's `message` (spelt for the command line and links: `give-up`, `max-lag`) with the
/// parameters it names spelt as the JS API's keys (`giveUp`, `maxLag`); a hyphenated key
/// followed by one of [`PROSE_AFTER`] ("the give-up time") is prose and stays.
pub(crate) fn in_js_spelling(message: &str) -> String {
    let mut spelt = message.to_string();
    for &key in of::<crate::Params>() {
        let hyphenated = kebab_case(key);
        if hyphenated != key {
            spelt = replace_key(&spelt, &hyphenated, key);
        }
    }
    spelt
}

/// `giveUp` as the command line spells it: `give-up`.
fn kebab_case(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` with each whole-word `from` (not part of a longer key: `retry-quota` in
/// `retry-quota-tokens`) that is not prose written `to`; what the message quotes (`got
/// "give-up"`, the value given) stays as it was.
fn replace_key(text: &str, from: &str, to: &str) -> String {
    text.split('"')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                part.to_string()
            } else {
                replace_unquoted(part, from, to)
            }
        })
        .collect::<Vec<_>>()
        .join("\"")
}

/// [`replace_key`] in text outside quotes.
fn replace_unquoted(text: &str, from: &str, to: &str) -> String {
    let part_of_word = |c: char| c.is_ascii_alphanumeric() || c == '-';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let (before, after) = (&rest[..at], &rest[at + from.len()..]);
        let starts_word = !before.chars().next_back().is_some_and(part_of_word);
        let ends_word = !after.chars().next().is_some_and(part_of_word);
        let next_word = after
            .strip_prefix(' ')
            .map(|tail| tail.split(|c: char| !c.is_ascii_alphanumeric()).next());
        let prose = next_word.is_some_and(|word| word.is_some_and(|w| PROSE_AFTER.contains(&w)));
        out.push_str(before);
        out.push_str(if starts_word && ends_word && !prose {
            to
        } else {
            from
        });
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::in_js_spelling;

    /// The core's refusals as the JS API says them: every key named as JavaScript passes it.
    #[test]
    fn messages_name_the_other_parameters_as_javascript_keys() {
        let cases = [
            (
                "attempts must be given alone: choose attempts or give-up, not both, got both attempts and give-up",
                "attempts must be given alone: choose attempts or giveUp, not both, got both attempts and giveUp",
            ),
            (
                "max-lag must be given only with a tolerance (how long an event stays worth delivering), got 1 h",
                "maxLag must be given only with a tolerance (how long an event stays worth delivering), got 1 h",
            ),
            (
                "retry-quota-tokens must be given only with retry-quota aws or grpc, got 5",
                "retryQuotaTokens must be given only with retryQuota aws or grpc, got 5",
            ),
            (
                "a list of 1 to 32 gaps (add a tail with then-every for more)",
                "a list of 1 to 32 gaps (add a tail with thenEvery for more)",
            ),
            // Prose, and words that only contain a key, stay.
            (
                "attempts must be a count from 1 to 10000, or a give-up deadline",
                "attempts must be a count from 1 to 10000, or a give-up deadline",
            ),
            ("the give-up time of one delivery", "the give-up time of one delivery"),
            ("a non-give-up value; the Retry-After header", "a non-give-up value; the Retry-After header"),
            // A value quoted as given is not a key.
            (
                "format must be csv, json or markdown, got \"give-up\"",
                "format must be csv, json or markdown, got \"give-up\"",
            ),
            (
                "retry-quota-tokens must be given only with retry-quota aws or grpc, got \"max-lag\"",
                "retryQuotaTokens must be given only with retryQuota aws or grpc, got \"max-lag\"",
            ),
        ];
        for (core, js) in cases {
            assert_eq!(in_js_spelling(core), js);
        }
    }

    /// A refusal the core really makes, through the JS spelling.
    #[test]
    fn a_refusal_of_attempts_beside_give_up_names_give_up_as_javascript_does() {
        let params: crate::Params = serde_json::from_str(
            r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 3, "giveUp": "1h"}"#,
        )
        .expect("valid JSON of the parameters");
        let refusal = params
            .policy()
            .expect_err("attempts and giveUp together")
            .to_string();
        assert!(refusal.contains("give-up"), "{refusal}");
        let spelt = in_js_spelling(&refusal);
        assert!(
            spelt.contains("giveUp") && !spelt.contains("give-up"),
            "{spelt}"
        );
    }

    #[test]
    fn the_parameters_fields_are_their_javascript_keys() {
        let fields = super::of::<crate::Params>();
        for key in [
            "base",
            "giveUp",
            "thenEvery",
            "budgetWindow",
            "maxLag",
            "attempts",
        ] {
            assert!(fields.contains(&key), "{key} in {fields:?}");
        }
        assert!(!fields.contains(&"give_up"));
        assert!(super::of::<f64>().is_empty());
    }
}
