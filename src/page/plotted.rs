//! A computed result handed back to be drawn may come from outside (the JS API's `drawView`
//! takes any object): every number in it must be one a chart can draw. Plotters' pixel
//! arithmetic overflows far beyond any result the computations give, and tick placement would
//! walk an absurd axis for minutes, so such a result is refused with the path of the number.
//!
//! The check walks the result with serde (the same shape the worker sends), looking only at
//! numbers: one serializer that writes nothing.

use serde::ser::{self, Serialize};

use crate::Error;

/// The largest magnitude a drawn number may have: far beyond any result (a year is 3.2e7 s, a
/// storm counts fewer than 1e12 attempts), far below what overflows plotters' pixel arithmetic.
pub const MAX_PLOTTED: f64 = 1e15;

/// Checks that every number in `value` is finite and within [`MAX_PLOTTED`] of 0; the refusal
/// names the first that is not by its path (`report.percentiles.p50`).
///
/// # Example
/// ```
/// use backoff_lab::page::check_plotted;
/// assert!(check_plotted(&[1.0, 2.5e9]).is_ok());
/// let refused = check_plotted(&[1.0, 1e300]).unwrap_err().to_string();
/// assert_eq!(
///     refused,
///     "computed must be a result whose numbers are finite and from -1e15 to 1e15, got 1e300 at [1]"
/// );
/// ```
pub fn check_plotted(value: &impl Serialize) -> Result<(), Error> {
    let mut walk = Walk { path: vec![] };
    value.serialize(&mut walk).map_err(|Refused(path, number)| {
        Error::out_of_range(
            "computed",
            format!("{number:e} at {path}"),
            format!(
                "a result whose numbers are finite and from -{MAX_PLOTTED:e} to {MAX_PLOTTED:e}"
            ),
        )
    })
}

/// The path of the number refused and the number.
#[derive(Debug)]
struct Refused(String, f64);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} is {}", self.0, self.1)
    }
}

impl std::error::Error for Refused {}

impl ser::Error for Refused {
    fn custom<T: std::fmt::Display>(message: T) -> Self {
        Refused(message.to_string(), f64::NAN)
    }
}

/// One step of the walk's path. Written out only for the number refused: a result holds
/// hundreds of thousands of numbers (a herd's histograms), and formatting every index was most
/// of the check's time.
enum Step {
    Field(&'static str),
    Key(String),
    Index(usize),
}

/// Where the walk is: field names and indices.
struct Walk {
    path: Vec<Step>,
}

impl Walk {
    fn number(&self, number: f64) -> Result<(), Refused> {
        if number.is_finite() && number.abs() <= MAX_PLOTTED {
            return Ok(());
        }
        let mut path = String::new();
        for step in &self.path {
            let name = match step {
                Step::Field(name) => name,
                Step::Key(name) => name.as_str(),
                Step::Index(index) => {
                    path.push_str(&format!("[{index}]"));
                    continue;
                }
            };
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(name);
        }
        Err(Refused(path, number))
    }

    fn inside<T: Serialize + ?Sized>(&mut self, step: Step, value: &T) -> Result<(), Refused> {
        self.path.push(step);
        let result = value.serialize(&mut *self);
        self.path.pop();
        result
    }
}

/// A sequence, tuple or map being walked: the index of the next element.
struct Elements<'a> {
    walk: &'a mut Walk,
    index: usize,
    /// A map's key, when it is a name, for the value that follows.
    key: Option<String>,
}

impl<'a> Elements<'a> {
    fn new(walk: &'a mut Walk) -> Self {
        Elements {
            walk,
            index: 0,
            key: None,
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Refused> {
        let step = Step::Index(self.index);
        self.index += 1;
        self.walk.inside(step, value)
    }
}

macro_rules! numbers {
    ($($method:ident: $type:ty),*) => {
        $(fn $method(self, v: $type) -> Result<(), Refused> {
            self.number(v as f64)
        })*
    };
}

macro_rules! nothing {
    ($($method:ident: $type:ty),*) => {
        $(fn $method(self, _: $type) -> Result<(), Refused> {
            Ok(())
        })*
    };
}

impl<'a> ser::Serializer for &'a mut Walk {
    type Ok = ();
    type Error = Refused;
    type SerializeSeq = Elements<'a>;
    type SerializeTuple = Elements<'a>;
    type SerializeTupleStruct = Elements<'a>;
    type SerializeTupleVariant = Elements<'a>;
    type SerializeMap = Elements<'a>;
    type SerializeStruct = Elements<'a>;
    type SerializeStructVariant = Elements<'a>;

    numbers!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64,
        serialize_f32: f32, serialize_f64: f64);
    nothing!(serialize_bool: bool, serialize_char: char, serialize_str: &str, serialize_bytes: &[u8]);

    fn serialize_none(self) -> Result<(), Refused> {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Refused> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Refused> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Refused> {
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<(), Refused> {
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Refused> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Refused> {
        self.inside(Step::Field(variant), value)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Elements<'a>, Refused> {
        Ok(Elements::new(self))
    }
    fn serialize_tuple(self, _: usize) -> Result<Elements<'a>, Refused> {
        Ok(Elements::new(self))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Elements<'a>, Refused> {
        Ok(Elements::new(self))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Elements<'a>, Refused> {
        Ok(Elements::new(self))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Elements<'a>, Refused> {
        Ok(Elements::new(self))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Elements<'a>, Refused> {
        Ok(Elements::new(self))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Elements<'a>, Refused> {
        Ok(Elements::new(self))
    }
}

impl ser::SerializeSeq for Elements<'_> {
    type Ok = ();
    type Error = Refused;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Refused> {
        self.element(value)
    }
    fn end(self) -> Result<(), Refused> {
        Ok(())
    }
}

impl ser::SerializeTuple for Elements<'_> {
    type Ok = ();
    type Error = Refused;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Refused> {
        self.element(value)
    }
    fn end(self) -> Result<(), Refused> {
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Elements<'_> {
    type Ok = ();
    type Error = Refused;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Refused> {
        self.element(value)
    }
    fn end(self) -> Result<(), Refused> {
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Elements<'_> {
    type Ok = ();
    type Error = Refused;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Refused> {
        self.element(value)
    }
    fn end(self) -> Result<(), Refused> {
        Ok(())
    }
}

impl ser::SerializeMap for Elements<'_> {
    type Ok = ();
    type Error = Refused;
    // Map keys are names (a flattened struct's fields), not drawn numbers.
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Refused> {
        self.key = key.serialize(KeyName).ok();
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Refused> {
        match self.key.take() {
            Some(name) => self.walk.inside(Step::Key(name), value),
            None => self.element(value),
        }
    }
    fn end(self) -> Result<(), Refused> {
        Ok(())
    }
}

impl ser::SerializeStruct for Elements<'_> {
    type Ok = ();
    type Error = Refused;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Refused> {
        self.walk.inside(Step::Field(name), value)
    }
    fn end(self) -> Result<(), Refused> {
        Ok(())
    }
}

impl ser::SerializeStructVariant for Elements<'_> {
    type Ok = ();
    type Error = Refused;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Refused> {
        self.walk.inside(Step::Field(name), value)
    }
    fn end(self) -> Result<(), Refused> {
        Ok(())
    }
}

/// A map key as a name: text or a whole number; anything else is no name.
struct KeyName;

macro_rules! no_name {
    ($($method:ident: $type:ty),*) => {
        $(fn $method(self, _: $type) -> Result<String, Refused> {
            Err(Refused(String::new(), f64::NAN))
        })*
    };
}

impl ser::Serializer for KeyName {
    type Ok = String;
    type Error = Refused;
    type SerializeSeq = ser::Impossible<String, Refused>;
    type SerializeTuple = ser::Impossible<String, Refused>;
    type SerializeTupleStruct = ser::Impossible<String, Refused>;
    type SerializeTupleVariant = ser::Impossible<String, Refused>;
    type SerializeMap = ser::Impossible<String, Refused>;
    type SerializeStruct = ser::Impossible<String, Refused>;
    type SerializeStructVariant = ser::Impossible<String, Refused>;

    fn serialize_str(self, v: &str) -> Result<String, Refused> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Result<String, Refused> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Result<String, Refused> {
        Ok(v.to_string())
    }
    no_name!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_f32: f32,
        serialize_f64: f64, serialize_char: char, serialize_bytes: &[u8],
        serialize_unit_struct: &'static str);
    fn serialize_none(self) -> Result<String, Refused> {
        Err(Refused(String::new(), f64::NAN))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<String, Refused> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<String, Refused> {
        Err(Refused(String::new(), f64::NAN))
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<String, Refused> {
        Ok(variant.to_string())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<String, Refused> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Refused> {
        Err(Refused(String::new(), f64::NAN))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Refused> {
        Err(Refused(String::new(), f64::NAN))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Refused> {
        Err(Refused(String::new(), f64::NAN))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Refused> {
        Err(Refused(String::new(), f64::NAN))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Refused> {
        Err(Refused(String::new(), f64::NAN))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Refused> {
        Err(Refused(String::new(), f64::NAN))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Refused> {
        Err(Refused(String::new(), f64::NAN))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Refused> {
        Err(Refused(String::new(), f64::NAN))
    }
}
