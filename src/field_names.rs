//! The field names a struct deserializes, as serde's derive spells them (renames applied): for
//! refusing keys a struct does not have where the deserializer itself never sees them.

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

#[cfg(test)]
mod tests {
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
