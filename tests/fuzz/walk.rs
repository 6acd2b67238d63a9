//! Every number a value serializes, with its path (`.summary.attempts`, `.rows[].gap_s`), handed
//! to a visitor: a serializer of its own, since `serde_json` turns NaN and infinities into
//! `null`. Elements of a sequence share one path, so that a million bins cost no allocation.

use serde::ser::{self, Serialize};
use std::fmt;
use std::rc::Rc;

#[derive(Debug)]
pub struct E(pub String);
impl fmt::Display for E {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for E {}
impl ser::Error for E {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        E(msg.to_string())
    }
}

type Visit<'a> = &'a mut dyn FnMut(&str, f64);

pub fn numbers<T: Serialize + ?Sized>(value: &T, visit: Visit<'_>) -> Result<(), E> {
    value.serialize(W {
        path: Rc::from(""),
        visit,
    })
}

pub struct W<'a> {
    path: Rc<str>,
    visit: Visit<'a>,
}

pub struct C<'a> {
    path: Rc<str>,
    element: Rc<str>,
    visit: Visit<'a>,
    key: String,
}

impl W<'_> {
    fn num(self, n: f64) -> Result<(), E> {
        (self.visit)(&self.path, n);
        Ok(())
    }
}

impl<'a> W<'a> {
    fn compound(self) -> C<'a> {
        C {
            element: Rc::from(format!("{}[]", self.path)),
            path: self.path,
            visit: self.visit,
            key: String::new(),
        }
    }
}

impl C<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), E> {
        value.serialize(W {
            path: self.element.clone(),
            visit: &mut *self.visit,
        })
    }
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), E> {
        value.serialize(W {
            path: Rc::from(format!("{}.{key}", self.path)),
            visit: &mut *self.visit,
        })
    }
}

macro_rules! numbers {
    ($($method:ident: $t:ty),*) => {
        $(fn $method(self, v: $t) -> Result<(), E> { self.num(v as f64) })*
    };
}

impl<'a> ser::Serializer for W<'a> {
    type Ok = ();
    type Error = E;
    type SerializeSeq = C<'a>;
    type SerializeTuple = C<'a>;
    type SerializeTupleStruct = C<'a>;
    type SerializeTupleVariant = C<'a>;
    type SerializeMap = C<'a>;
    type SerializeStruct = C<'a>;
    type SerializeStructVariant = C<'a>;

    numbers!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_u128: u128, serialize_f32: f32, serialize_f64: f64);

    fn serialize_bool(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn serialize_char(self, _: char) -> Result<(), E> {
        Ok(())
    }
    fn serialize_str(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), E> {
        Ok(())
    }
    fn serialize_none(self) -> Result<(), E> {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), E> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), E> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), E> {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), E> {
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), E> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), E> {
        value.serialize(W {
            path: Rc::from(format!("{}.{variant}", self.path)),
            visit: self.visit,
        })
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<C<'a>, E> {
        Ok(self.compound())
    }
    fn serialize_tuple(self, _: usize) -> Result<C<'a>, E> {
        Ok(self.compound())
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<C<'a>, E> {
        Ok(self.compound())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<C<'a>, E> {
        Ok(self.compound())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<C<'a>, E> {
        Ok(self.compound())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<C<'a>, E> {
        Ok(self.compound())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<C<'a>, E> {
        Ok(self.compound())
    }
}

impl ser::SerializeSeq for C<'_> {
    type Ok = ();
    type Error = E;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), E> {
        self.element(v)
    }
    fn end(self) -> Result<(), E> {
        Ok(())
    }
}
impl ser::SerializeTuple for C<'_> {
    type Ok = ();
    type Error = E;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), E> {
        self.element(v)
    }
    fn end(self) -> Result<(), E> {
        Ok(())
    }
}
impl ser::SerializeTupleStruct for C<'_> {
    type Ok = ();
    type Error = E;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), E> {
        self.element(v)
    }
    fn end(self) -> Result<(), E> {
        Ok(())
    }
}
impl ser::SerializeTupleVariant for C<'_> {
    type Ok = ();
    type Error = E;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), E> {
        self.element(v)
    }
    fn end(self) -> Result<(), E> {
        Ok(())
    }
}
impl ser::SerializeMap for C<'_> {
    type Ok = ();
    type Error = E;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), E> {
        self.key = match serde_json::to_value(key) {
            Ok(serde_json::Value::String(s)) => s,
            Ok(other) => other.to_string(),
            Err(e) => return Err(E(e.to_string())),
        };
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), E> {
        let key = std::mem::take(&mut self.key);
        self.field(&key, v)
    }
    fn end(self) -> Result<(), E> {
        Ok(())
    }
}
impl ser::SerializeStruct for C<'_> {
    type Ok = ();
    type Error = E;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), E> {
        self.field(key, v)
    }
    fn end(self) -> Result<(), E> {
        Ok(())
    }
}
impl ser::SerializeStructVariant for C<'_> {
    type Ok = ();
    type Error = E;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), E> {
        self.field(key, v)
    }
    fn end(self) -> Result<(), E> {
        Ok(())
    }
}
