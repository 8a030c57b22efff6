//! A row type's cells, in field order, through its own `Serialize`: the results table's
//! columns and CSV cells come from [`super::table::BatchRow`] itself, so the CSV, the JSON and
//! the schema cannot name different columns.
//!
//! serde_json keeps no field order in a `Value` (its maps sort their keys), hence this small
//! serializer of one struct (flattened maps included) into named cells. Floats carry their
//! decimals in the name of the newtype that holds them ([`Seconds`], [`Mebibytes`]).

use schemars::JsonSchema;
use serde::ser::{self, Impossible, Serialize, SerializeMap, SerializeStruct, Serializer};
use serde::Deserialize;

/// One cell: an integer, a float with a fixed number of decimals, text, a boolean, or nothing.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Int(u64),
    Float(f64, usize),
    Text(String),
    Bool(bool),
    Empty,
}

impl Cell {
    pub fn csv(&self) -> String {
        match self {
            Cell::Int(v) => v.to_string(),
            Cell::Float(v, decimals) => format!("{v:.decimals$}"),
            Cell::Bool(b) => b.to_string(),
            Cell::Text(s) if s.contains([',', '"', '\n', '\r']) => format!("\"{}\"", s.replace('"', "\"\"")),
            Cell::Text(s) => s.clone(),
            Cell::Empty => String::new(),
        }
    }
}

/// A float rounded to `DECIMALS` in JSON and written with them in CSV; `NAME` tells the cell
/// serializer how many.
macro_rules! fixed_float {
    ($name:ident, $decimals:expr, $doc:literal) => {
        #[doc = $doc]
        #[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, JsonSchema)]
        #[serde(transparent)]
        pub struct $name(pub f64);

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                // Rounded like the CSV, so both files agree and stay stable.
                let rounded = format!("{:.*}", $decimals, self.0).parse::<f64>().unwrap_or(self.0);
                s.serialize_newtype_struct(stringify!($name), &rounded)
            }
        }
    };
}

fixed_float!(Seconds, 3, "Seconds, to the millisecond.");
fixed_float!(Mebibytes, 1, "MiB, to a tenth.");

/// The decimals of a float held by the newtype `name`.
fn decimals_of(name: &str) -> Option<usize> {
    match name {
        "Seconds" => Some(3),
        "Mebibytes" => Some(1),
        _ => None,
    }
}

/// A value that is not one cell, or a row that is not a struct.
#[derive(Debug)]
pub struct NotCells(String);

impl std::fmt::Display for NotCells {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotCells {}

impl ser::Error for NotCells {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        NotCells(msg.to_string())
    }
}

/// `row`'s fields as (column, cell), in order.
pub fn cells<T: Serialize>(row: &T) -> Result<Vec<(String, Cell)>, NotCells> {
    row.serialize(RowSerializer)
}

fn not_cells<T>(what: &str) -> Result<T, NotCells> {
    Err(NotCells(format!("{what} is not a table cell")))
}

/// Serialises one value into a [`Cell`].
struct CellSerializer;

macro_rules! unsupported {
    ($($method:ident($($arg:ty),*) -> $ret:ty;)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<$ret, NotCells> {
            not_cells(stringify!($method))
        })*
    };
}

impl Serializer for CellSerializer {
    type Ok = Cell;
    type Error = NotCells;
    type SerializeSeq = Impossible<Cell, NotCells>;
    type SerializeTuple = Impossible<Cell, NotCells>;
    type SerializeTupleStruct = Impossible<Cell, NotCells>;
    type SerializeTupleVariant = Impossible<Cell, NotCells>;
    type SerializeMap = Impossible<Cell, NotCells>;
    type SerializeStruct = Impossible<Cell, NotCells>;
    type SerializeStructVariant = Impossible<Cell, NotCells>;

    fn serialize_bool(self, v: bool) -> Result<Cell, NotCells> {
        Ok(Cell::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Cell, NotCells> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<Cell, NotCells> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<Cell, NotCells> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<Cell, NotCells> {
        u64::try_from(v).map(Cell::Int).or_else(|_| not_cells("a negative integer"))
    }
    fn serialize_u8(self, v: u8) -> Result<Cell, NotCells> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<Cell, NotCells> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<Cell, NotCells> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<Cell, NotCells> {
        Ok(Cell::Int(v))
    }
    fn serialize_f32(self, v: f32) -> Result<Cell, NotCells> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, _: f64) -> Result<Cell, NotCells> {
        not_cells("a float without its decimals (hold it in Seconds or Mebibytes)")
    }
    fn serialize_char(self, v: char) -> Result<Cell, NotCells> {
        Ok(Cell::Text(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Cell, NotCells> {
        Ok(Cell::Text(v.to_string()))
    }
    fn serialize_none(self) -> Result<Cell, NotCells> {
        Ok(Cell::Empty)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Cell, NotCells> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Cell, NotCells> {
        Ok(Cell::Empty)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<Cell, NotCells> {
        Ok(Cell::Text(variant.to_string()))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Result<Cell, NotCells> {
        match (decimals_of(name), serde_json::to_value(value)) {
            (Some(decimals), Ok(serde_json::Value::Number(n))) => {
                Ok(n.as_f64().map_or(Cell::Empty, |v| Cell::Float(v, decimals)))
            }
            _ => value.serialize(self),
        }
    }
    unsupported! {
        serialize_bytes(&[u8]) -> Cell;
        serialize_unit_struct(&'static str) -> Cell;
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Cell, NotCells> {
        not_cells("an enum with data")
    }
}

/// Serialises a struct (or, where it has flattened fields, a map) into named cells.
struct RowSerializer;

type Row = Vec<(String, Cell)>;

/// The cells so far, and a map entry's key until its value comes.
#[derive(Default)]
struct RowCells {
    cells: Row,
    key: Option<String>,
}

impl SerializeStruct for RowCells {
    type Ok = Row;
    type Error = NotCells;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<(), NotCells> {
        self.cells.push((key.to_string(), value.serialize(CellSerializer)?));
        Ok(())
    }
    fn end(self) -> Result<Row, NotCells> {
        Ok(self.cells)
    }
}

impl SerializeMap for RowCells {
    type Ok = Row;
    type Error = NotCells;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), NotCells> {
        match key.serialize(CellSerializer)? {
            Cell::Text(key) => self.key = Some(key),
            _ => return not_cells("a column name that is not text"),
        }
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), NotCells> {
        let key = self.key.take().ok_or_else(|| NotCells("a map value without its key".into()))?;
        self.cells.push((key, value.serialize(CellSerializer)?));
        Ok(())
    }
    fn end(self) -> Result<Row, NotCells> {
        Ok(self.cells)
    }
}

impl Serializer for RowSerializer {
    type Ok = Row;
    type Error = NotCells;
    type SerializeSeq = Impossible<Row, NotCells>;
    type SerializeTuple = Impossible<Row, NotCells>;
    type SerializeTupleStruct = Impossible<Row, NotCells>;
    type SerializeTupleVariant = Impossible<Row, NotCells>;
    type SerializeMap = RowCells;
    type SerializeStruct = RowCells;
    type SerializeStructVariant = Impossible<Row, NotCells>;

    fn serialize_map(self, _: Option<usize>) -> Result<RowCells, NotCells> {
        Ok(RowCells::default())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<RowCells, NotCells> {
        Ok(RowCells::default())
    }
    unsupported! {
        serialize_bool(bool) -> Row;
        serialize_i8(i8) -> Row;
        serialize_i16(i16) -> Row;
        serialize_i32(i32) -> Row;
        serialize_i64(i64) -> Row;
        serialize_u8(u8) -> Row;
        serialize_u16(u16) -> Row;
        serialize_u32(u32) -> Row;
        serialize_u64(u64) -> Row;
        serialize_f32(f32) -> Row;
        serialize_f64(f64) -> Row;
        serialize_char(char) -> Row;
        serialize_str(&str) -> Row;
        serialize_bytes(&[u8]) -> Row;
        serialize_none() -> Row;
        serialize_unit() -> Row;
        serialize_unit_struct(&'static str) -> Row;
        serialize_unit_variant(&'static str, u32, &'static str) -> Row;
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<Row, NotCells> {
        not_cells("an optional row")
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> Result<Row, NotCells> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Row, NotCells> {
        not_cells("an enum row")
    }
}
