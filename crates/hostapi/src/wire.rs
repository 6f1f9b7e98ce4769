//! Reading the wire's loose values: booleans in five spellings, numbers as strings,
//! five date formats, sizes with units. Every reader says what it expected and what it
//! found; [`FieldError`] collects where (as a JSON path in the wire's own names).

use std::borrow::Cow;
use std::str::FromStr;

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use crate::model::{BitRate, ContractTerm, DataSize, DataUnit, RateUnit, TermUnit};

/// A value the normaliser could not read, and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FieldError {
    /// Outermost first once complete; built innermost first while the error travels
    /// up, so each level adds its own segment without knowing its parents.
    path: Vec<Segment>,
    message: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Key(Cow<'static, str>),
    Index(usize),
}

impl FieldError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Self {
            path: Vec::new(),
            message: message.into(),
        }
    }

    /// The value was required but absent (or null).
    pub(crate) fn missing() -> Self {
        Self::new("required but absent")
    }

    /// Adds the key this error sits under.
    pub(crate) fn at(mut self, key: impl Into<Cow<'static, str>>) -> Self {
        self.path.push(Segment::Key(key.into()));
        self
    }

    /// Adds the array index this error sits at.
    pub(crate) fn at_index(mut self, index: usize) -> Self {
        self.path.push(Segment::Index(index));
        self
    }

    /// The JSON path, e.g. `virtualServers[3].administrativeInfo.createdAt`.
    pub(crate) fn path(&self) -> String {
        let mut out = String::new();
        for segment in self.path.iter().rev() {
            match segment {
                Segment::Key(key) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(key);
                }
                Segment::Index(index) => {
                    out.push('[');
                    out.push_str(&index.to_string());
                    out.push(']');
                }
            }
        }
        out
    }

    pub(crate) fn message(&self) -> &str {
        &self.message
    }
}

/// Adds path segments to the error of a `Result`.
pub(crate) trait At<T> {
    /// Places the error under `key`.
    fn at(self, key: impl Into<Cow<'static, str>>) -> Result<T, FieldError>;
    /// Places the error at `index`.
    fn at_index(self, index: usize) -> Result<T, FieldError>;
}

impl<T> At<T> for Result<T, FieldError> {
    fn at(self, key: impl Into<Cow<'static, str>>) -> Result<T, FieldError> {
        self.map_err(|e| e.at(key))
    }

    fn at_index(self, index: usize) -> Result<T, FieldError> {
        self.map_err(|e| e.at_index(index))
    }
}

/// The wire's leftover fields as the model's [`Extra`](crate::model::Extra) map.
pub(crate) fn extra(map: serde_json::Map<String, serde_json::Value>) -> crate::model::Extra {
    // Most records have no leftovers: skip building a map from nothing.
    if map.is_empty() {
        return crate::model::Extra::new();
    }
    map.into_iter().collect()
}

/// Takes a field the spec could not name (an alternate spelling that lands in the
/// leftovers, such as `Id` beside `id`) out of the leftover map.
pub(crate) fn take_extra(
    map: &mut serde_json::Map<String, serde_json::Value>,
    key: &str,
) -> Option<serde_json::Value> {
    map.remove(key)
}

/// The text of a JSON scalar: strings as they are, numbers and booleans printed; `None`
/// for null, arrays and objects.
pub(crate) fn scalar_text(value: &serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// [`scalar_text`] of a value the caller owns: a string is moved, not copied.
pub(crate) fn into_scalar_text(value: serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::String(s) => Some(s),
        other => scalar_text(&other),
    }
}

/// An IP address.
pub(crate) fn ip_address(text: &str) -> Result<std::net::IpAddr, FieldError> {
    text.trim()
        .parse()
        .map_err(|_| FieldError::new(format!("expected an IP address, found {}", found(text))))
}

/// Requires a value the wire may have left out.
pub(crate) fn required<T>(value: Option<T>, key: &'static str) -> Result<T, FieldError> {
    value.ok_or_else(|| FieldError::missing().at(key))
}

/// Normalises each item of a list, numbering errors by index.
pub(crate) fn each<R, T>(
    items: Vec<R>,
    mut f: impl FnMut(R) -> Result<T, FieldError>,
) -> Result<Vec<T>, FieldError> {
    // A normalised record is most often smaller than its raw one: then collecting
    // reuses the raw vector's buffer (std collects `vec.into_iter().map(…)` in place),
    // which saves allocating a second buffer of the list's size (megabytes for a long
    // list, fresh pages each time) and freeing the first one.
    if size_of::<T>() <= size_of::<R>() && align_of::<T>() == align_of::<R>() {
        return items
            .into_iter()
            .enumerate()
            .map(|(index, item)| f(item).at_index(index))
            .collect();
    }
    // Otherwise sized once: collecting a `Result` iterator cannot know the length and
    // grows the vector by doubling, copying every record already normalised each time.
    let mut out = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        out.push(f(item).at_index(index)?);
    }
    Ok(out)
}

fn found(value: &str) -> String {
    let shown: String = value.chars().take(60).collect();
    if shown.len() < value.len() {
        format!("`{shown}…`")
    } else {
        format!("`{shown}`")
    }
}

/// `None` for null, absent, empty or blank text; the trimmed text otherwise.
pub(crate) fn non_empty(value: Option<String>) -> Option<String> {
    let value = value?;
    // Most wire text starts and ends with a visible ASCII character: nothing to trim,
    // and checking two bytes is far cheaper than `trim`'s character-by-character scan
    // (a tenth of the whole list normalisation when measured).
    let untrimmed =
        |byte: Option<&u8>| byte.is_some_and(|b| b.is_ascii() && !(*b as char).is_whitespace());
    if untrimmed(value.as_bytes().first()) && untrimmed(value.as_bytes().last()) {
        return Some(value);
    }
    let trimmed = value.trim();
    if trimmed.is_empty() {
        None
    } else if trimmed.len() == value.len() {
        Some(value)
    } else {
        Some(trimmed.to_owned())
    }
}

/// A boolean from `true`/`false`, `"true"`/`"false"`, `"yes"`/`"no"`, `1`/`0`, `"1"`/`"0"`,
/// `"on"`/`"off"` (any letter case).
pub(crate) fn boolean(text: &str) -> Result<bool, FieldError> {
    let word = text.trim();
    let is = |spellings: &[&str]| spellings.iter().any(|s| word.eq_ignore_ascii_case(s));
    if is(&["true", "yes", "y", "1", "on"]) {
        Ok(true)
    } else if is(&["false", "no", "n", "0", "off", ""]) {
        Ok(false)
    } else {
        Err(FieldError::new(format!(
            "expected a boolean (true/false, yes/no, 1/0), found {}",
            found(text)
        )))
    }
}

/// A boolean sent as an integer (0 false, anything else true).
pub(crate) fn boolean_from_integer(value: i64) -> bool {
    value != 0
}

/// An exact decimal from text such as `"12.99"`, `"1,234.50"`, `"24,50"` or `"€ 12.99"`.
///
/// A comma is a thousands separator when a point is also present or when exactly
/// three digits follow it (`"1,234"`), and the decimal separator otherwise (`"24,50"`),
/// so a European price is never read as a hundred times itself.
pub(crate) fn decimal(text: &str) -> Result<Decimal, FieldError> {
    // Plain numbers ("12.99", "-3") need none of the cleaning below, which copies the
    // text twice; whatever this cannot read takes the full path.
    let plain = text
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-');
    if plain && let Ok(value) = Decimal::from_str(text) {
        return Ok(value);
    }
    let kept: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | '€' | '$' | '£'))
        .collect();
    let commas = kept.matches(',').count();
    let decimal_comma = !kept.contains('.')
        && commas == 1
        && kept.rsplit(',').next().is_some_and(|tail| tail.len() != 3);
    let cleaned = if decimal_comma {
        kept.replace(',', ".")
    } else {
        kept.replace(',', "")
    };
    Decimal::from_str(&cleaned)
        .or_else(|_| Decimal::from_scientific(&cleaned))
        .map_err(|_| FieldError::new(format!("expected a decimal number, found {}", found(text))))
}

/// An exact decimal from a JSON number: the shortest text that reads back as the same
/// `f64`, so `12.99` stays `12.99` rather than becoming `12.9900000000000002131628…`.
pub(crate) fn decimal_from_f64(value: f64) -> Result<Decimal, FieldError> {
    if !value.is_finite() {
        return Err(FieldError::new(format!(
            "expected a finite number, found {value}"
        )));
    }
    // `Display`, not ryu: both print a shortest text that reads back as the same `f64`,
    // but where two are equally close (689968361148992.25 exactly) ryu takes the even
    // digit (…992.2) and `Display` the other (…992.3). The facade has always read
    // `Display`'s text; ryu saved only the allocation of this short string.
    decimal(&value.to_string())
}

/// A non-negative count from a wire integer.
pub(crate) fn count(value: i64) -> Result<u64, FieldError> {
    u64::try_from(value)
        .map_err(|_| FieldError::new(format!("expected a count (0 or more), found {value}")))
}

/// The value of a run of ASCII digits (at most 9 of them), or `None`.
fn digits(bytes: &[u8]) -> Option<u32> {
    bytes.iter().try_fold(0u32, |value, b| {
        b.is_ascii_digit().then(|| value * 10 + u32::from(b - b'0'))
    })
}

/// Exactly `YYYY-MM-DD` (a valid date), or `None`: the wire's usual spelling, read
/// without chrono's format interpreter. Anything else (and invalid dates) is left to
/// the general readers, which give the same result for what this accepts.
fn canonical_date(text: &[u8]) -> Option<NaiveDate> {
    match text {
        [y @ .., b'-', m1, m2, b'-', d1, d2] if y.len() == 4 => {
            let year = i32::try_from(digits(y)?).ok()?;
            NaiveDate::from_ymd_opt(year, digits(&[*m1, *m2])?, digits(&[*d1, *d2])?)
        }
        _ => None,
    }
}

/// Exactly `YYYY-MM-DDThh:mm:ss` or `YYYY-MM-DD hh:mm:ss` (valid, no leap second), or
/// `None`; see [`canonical_date`].
fn canonical_local_date_time(text: &[u8]) -> Option<NaiveDateTime> {
    if text.len() != 19 || !matches!(text[10], b'T' | b' ') {
        return None;
    }
    let date = canonical_date(&text[..10])?;
    let time = match &text[11..] {
        [h1, h2, b':', m1, m2, b':', s1, s2] => chrono::NaiveTime::from_hms_opt(
            digits(&[*h1, *h2])?,
            digits(&[*m1, *m2])?,
            digits(&[*s1, *s2])?,
        )?,
        _ => return None,
    };
    Some(date.and_time(time))
}

/// Local ISO 8601 without offset: `YYYY-MM-DDThh:mm:ss` (a space instead of `T` and
/// fractional seconds are accepted too).
pub(crate) fn local_date_time(text: &str) -> Result<NaiveDateTime, FieldError> {
    let text = text.trim();
    if let Some(value) = canonical_local_date_time(text.as_bytes()) {
        return Ok(value);
    }
    [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
    ]
    .iter()
    .find_map(|format| NaiveDateTime::parse_from_str(text, format).ok())
    .ok_or_else(|| {
        FieldError::new(format!(
            "expected a local date-time like 2024-01-31T13:45:00, found {}",
            found(text)
        ))
    })
}

/// A timestamp with an offset: `YYYY-MM-DDThh:mm:ss+hhmm` (the wire's form), `+hh:mm`
/// or `Z` (RFC 3339), with optional fractional seconds.
pub(crate) fn offset_date_time(text: &str) -> Result<DateTime<FixedOffset>, FieldError> {
    let text = text.trim();
    DateTime::parse_from_rfc3339(text)
        .ok()
        .or_else(|| {
            ["%Y-%m-%dT%H:%M:%S%.f%z", "%Y-%m-%d %H:%M:%S%.f%z"]
                .iter()
                .find_map(|format| DateTime::parse_from_str(text, format).ok())
        })
        .ok_or_else(|| {
            FieldError::new(format!(
                "expected a timestamp with offset like 2024-01-31T13:45:00+0100, found {}",
                found(text)
            ))
        })
}

/// A date shown as `Mon d, yyyy` (`Jan 5, 2024`; full month names too).
pub(crate) fn month_day_year(text: &str) -> Result<NaiveDate, FieldError> {
    let text = text.trim();
    ["%b %d, %Y", "%B %d, %Y", "%b %e, %Y"]
        .iter()
        .find_map(|format| NaiveDate::parse_from_str(text, format).ok())
        .ok_or_else(|| {
            FieldError::new(format!(
                "expected a date like Jan 5, 2024, found {}",
                found(text)
            ))
        })
}

/// A date shown as `DD-MM-YYYY`.
pub(crate) fn day_month_year(text: &str) -> Result<NaiveDate, FieldError> {
    let text = text.trim();
    if let [d1, d2, b'-', m1, m2, b'-', y @ ..] = text.as_bytes()
        && y.len() == 4
        && let Some(date) = digits(y)
            .and_then(|year| i32::try_from(year).ok())
            .and_then(|year| {
                NaiveDate::from_ymd_opt(year, digits(&[*m1, *m2])?, digits(&[*d1, *d2])?)
            })
    {
        return Ok(date);
    }
    NaiveDate::parse_from_str(text, "%d-%m-%Y").map_err(|_| {
        FieldError::new(format!(
            "expected a date like 31-01-2024 (DD-MM-YYYY), found {}",
            found(text)
        ))
    })
}

/// Any of the wire's date spellings, as a calendar date: the contract and billing
/// dates come as `YYYY-MM-DD`, local date-times, offset timestamps, `Mon d, yyyy` or
/// `DD-MM-YYYY` depending on the view.
pub(crate) fn any_date(text: &str) -> Result<NaiveDate, FieldError> {
    let trimmed = text.trim();
    let bytes = trimmed.as_bytes();
    if let Some(date) =
        canonical_date(bytes).or_else(|| canonical_local_date_time(bytes).map(|d| d.date()))
    {
        return Ok(date);
    }
    NaiveDate::parse_from_str(trimmed, "%Y-%m-%d")
        .ok()
        .or_else(|| local_date_time(trimmed).ok().map(|d| d.date()))
        .or_else(|| offset_date_time(trimmed).ok().map(|d| d.date_naive()))
        .or_else(|| month_day_year(trimmed).ok())
        .or_else(|| day_month_year(trimmed).ok())
        .ok_or_else(|| FieldError::new(format!("expected a date, found {}", found(text))))
}

/// An optional date: null, absent, `""` and the all-zero date mean none.
pub(crate) fn optional<T>(
    value: Option<String>,
    read: impl FnOnce(&str) -> Result<T, FieldError>,
) -> Result<Option<T>, FieldError> {
    match non_empty(value) {
        None => Ok(None),
        Some(text) if text.starts_with("0000-00-00") => Ok(None),
        Some(text) => read(&text).map(Some),
    }
}

/// Splits "1100.50 GB", "64GB", "11 Mbps" into the number and the unit text.
fn amount_and_unit(text: &str) -> Option<(Decimal, &str)> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ',' || c == '-'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let amount = decimal(number).ok()?;
    Some((amount, unit.trim()))
}

/// A data size with its unit ("1100.50 GB", "64GB"). A bare number has no unit to
/// assume and is refused.
pub(crate) fn data_size(text: &str) -> Result<DataSize, FieldError> {
    match amount_and_unit(text) {
        Some((amount, unit)) if !unit.is_empty() => Ok(DataSize {
            amount,
            unit: data_unit(unit),
        }),
        _ => Err(FieldError::new(format!(
            "expected a size with a unit like 64 GB, found {}",
            found(text)
        ))),
    }
}

/// A data unit, with the spellings the wire uses ("GB", "Gb", "gigabytes", "GiB"…).
pub(crate) fn data_unit(text: &str) -> DataUnit {
    let unit = text.trim();
    // Compared without lower-casing a copy (this runs for every disk of every server).
    let singular = unit.trim_end_matches(['s', 'S']);
    let spellings = [
        (["b", "byte"], "B"),
        (["kb", "kilobyte"], "KB"),
        (["mb", "megabyte"], "MB"),
        (["gb", "gigabyte"], "GB"),
        (["tb", "terabyte"], "TB"),
        (["pb", "petabyte"], "PB"),
    ];
    let canonical = spellings
        .iter()
        .find(|(words, _)| words.iter().any(|w| singular.eq_ignore_ascii_case(w)))
        .map_or(unit, |(_, canonical)| canonical);
    DataUnit::from_wire(canonical)
}

/// A bit rate with its unit ("11 Mbps", "100 Mbit/s").
pub(crate) fn bit_rate(text: &str) -> Result<BitRate, FieldError> {
    match amount_and_unit(text) {
        Some((amount, unit)) if !unit.is_empty() => {
            let canonical = match unit.to_ascii_lowercase().as_str() {
                "bps" | "bit/s" => "bps",
                "kbps" | "kbit/s" => "Kbps",
                "mbps" | "mbit/s" => "Mbps",
                "gbps" | "gbit/s" => "Gbps",
                _ => unit,
            };
            Ok(BitRate {
                amount,
                unit: RateUnit::from_wire(canonical),
            })
        }
        _ => Err(FieldError::new(format!(
            "expected a rate with a unit like 11 Mbps, found {}",
            found(text)
        ))),
    }
}

/// A contract term: "1 year", "2 years", "12 months", "1 month", or a bare number of
/// years (the documented integer form).
pub(crate) fn contract_term_text(text: &str) -> Result<ContractTerm, FieldError> {
    let text = text.trim();
    let error = || {
        FieldError::new(format!(
            "expected a term like `1 year` or `12 months`, found {}",
            found(text)
        ))
    };
    let (number, unit) = match text.split_once(char::is_whitespace) {
        Some((number, unit)) => (number, unit.trim()),
        None => (text, "year"),
    };
    let amount: u32 = number.parse().map_err(|_| error())?;
    // Compared without lower-casing a copy (this runs for every record of a list).
    let singular = unit.trim_end_matches(['s', 'S']);
    let is = |words: &[&str]| words.iter().any(|w| singular.eq_ignore_ascii_case(w));
    let unit = if is(&["year", "yr"]) {
        TermUnit::Years
    } else if is(&["month", "mo"]) {
        TermUnit::Months
    } else {
        TermUnit::from_wire(unit)
    };
    Ok(ContractTerm { amount, unit })
}

/// A contract term given as an integer number of years.
pub(crate) fn contract_term_years(years: i64) -> Result<ContractTerm, FieldError> {
    let amount = u32::try_from(years)
        .map_err(|_| FieldError::new(format!("expected a number of years, found {years}")))?;
    Ok(ContractTerm {
        amount,
        unit: TermUnit::Years,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_outermost_first() {
        let error = FieldError::new("bad")
            .at("createdAt")
            .at("administrativeInfo")
            .at_index(3)
            .at("virtualServers");
        assert_eq!(
            error.path(),
            "virtualServers[3].administrativeInfo.createdAt"
        );
    }

    #[test]
    fn booleans_in_every_spelling() {
        for yes in ["true", "TRUE", "Yes", "1", " on "] {
            assert_eq!(boolean(yes), Ok(true), "{yes}");
        }
        for no in ["false", "No", "0", "off", ""] {
            assert_eq!(boolean(no), Ok(false), "{no}");
        }
        assert!(boolean("maybe").unwrap_err().message().contains("`maybe`"));
    }

    proptest::proptest! {
        /// The copy-free unit reader agrees with the lower-casing one it replaced.
        #[test]
        fn data_units_read_as_before(text in "[ bBkKmMgGtTpPyteilosS]{0,12}") {
            let unit = text.trim();
            let lower = unit.to_ascii_lowercase();
            let canonical = match lower.trim_end_matches('s') {
                "b" | "byte" => "B",
                "kb" | "kilobyte" => "KB",
                "mb" | "megabyte" => "MB",
                "gb" | "gigabyte" => "GB",
                "tb" | "terabyte" => "TB",
                "pb" | "petabyte" => "PB",
                _ => unit,
            };
            proptest::prop_assert_eq!(data_unit(&text), DataUnit::from_wire(canonical));
        }
    }

    #[test]
    fn decimals_stay_exact() {
        assert_eq!(decimal("12.99").unwrap().to_string(), "12.99");
        assert_eq!(decimal("1,234.50").unwrap().to_string(), "1234.50");
        assert_eq!(decimal("1,234").unwrap().to_string(), "1234");
        assert_eq!(decimal("24,50").unwrap().to_string(), "24.50");
        assert_eq!(decimal("€ 9,5").unwrap().to_string(), "9.5");
        assert_eq!(decimal("1,234,567.5").unwrap().to_string(), "1234567.5");
        assert_eq!(decimal_from_f64(12.99).unwrap().to_string(), "12.99");
        assert_eq!(decimal_from_f64(12.0).unwrap().to_string(), "12");
        // Halfway between two shortest texts: the one `Display` prints (ryu printed
        // …992.2 here).
        assert_eq!(
            decimal_from_f64(689_968_361_148_992.3).unwrap().to_string(),
            "689968361148992.3"
        );
        assert_eq!(decimal_from_f64(1e-7).unwrap().to_string(), "0.0000001");
        assert_eq!(
            decimal_from_f64(0.1 + 0.2).unwrap().to_string(),
            "0.30000000000000004"
        );
        assert!(decimal_from_f64(f64::NAN).is_err());
        assert!(decimal("twelve").is_err());
    }

    #[test]
    fn the_five_date_formats() {
        assert_eq!(
            local_date_time("2024-01-31T13:45:00").unwrap().to_string(),
            "2024-01-31 13:45:00"
        );
        assert_eq!(
            offset_date_time("2024-01-31T13:45:00+0100")
                .unwrap()
                .to_rfc3339(),
            "2024-01-31T13:45:00+01:00"
        );
        assert_eq!(
            offset_date_time("2024-01-31T13:45:00Z")
                .unwrap()
                .to_rfc3339(),
            "2024-01-31T13:45:00+00:00"
        );
        assert_eq!(
            month_day_year("Jan 5, 2024").unwrap().to_string(),
            "2024-01-05"
        );
        assert_eq!(
            month_day_year("January 15, 2024").unwrap().to_string(),
            "2024-01-15"
        );
        assert_eq!(
            day_month_year("31-01-2024").unwrap().to_string(),
            "2024-01-31"
        );
        assert_eq!(any_date("2024-01-31").unwrap().to_string(), "2024-01-31");
        assert_eq!(optional(Some(String::new()), any_date), Ok(None));
        assert_eq!(optional(None, any_date), Ok(None));
        assert_eq!(
            optional(Some("0000-00-00 00:00:00".into()), any_date),
            Ok(None)
        );
        assert!(day_month_year("2024-01-31").is_err());
    }

    #[test]
    fn sizes_rates_and_terms() {
        let size = data_size("1100.50 GB").unwrap();
        assert_eq!(
            (size.amount.to_string(), size.unit),
            ("1100.50".to_owned(), DataUnit::Gigabytes)
        );
        assert_eq!(
            data_size("64GB").unwrap().bytes().unwrap().to_string(),
            "64000000000"
        );
        assert_eq!(
            data_size("2 TiB").unwrap().unit,
            DataUnit::Unknown("TiB".into())
        );
        assert!(data_size("64").is_err());
        let rate = bit_rate("11 Mbps").unwrap();
        assert_eq!(rate.bits_per_second().unwrap().to_string(), "11000000");
        assert_eq!(contract_term_text("2 years").unwrap().months(), Some(24));
        assert_eq!(contract_term_text("12 months").unwrap().months(), Some(12));
        assert_eq!(contract_term_text("3").unwrap().months(), Some(36));
        assert_eq!(contract_term_text("1 YEARS").unwrap().months(), Some(12));
        assert_eq!(contract_term_text("2 Yrs").unwrap().months(), Some(24));
        assert_eq!(contract_term_text("6 Mos").unwrap().months(), Some(6));
        assert_eq!(contract_term_text("1 Month").unwrap().months(), Some(1));
        assert!(contract_term_text("forever").is_err());
    }

    /// The readers as they were before their fast paths: chrono's format interpreter
    /// for every date, the cleaning path for every decimal. The fast paths must agree
    /// with them on every input.
    mod reference {
        use super::*;

        pub(super) fn local_date_time(text: &str) -> Option<NaiveDateTime> {
            let text = text.trim();
            [
                "%Y-%m-%dT%H:%M:%S%.f",
                "%Y-%m-%d %H:%M:%S%.f",
                "%Y-%m-%dT%H:%M",
            ]
            .iter()
            .find_map(|format| NaiveDateTime::parse_from_str(text, format).ok())
        }

        pub(super) fn day_month_year(text: &str) -> Option<NaiveDate> {
            NaiveDate::parse_from_str(text.trim(), "%d-%m-%Y").ok()
        }

        pub(super) fn any_date(text: &str) -> Option<NaiveDate> {
            let trimmed = text.trim();
            NaiveDate::parse_from_str(trimmed, "%Y-%m-%d")
                .ok()
                .or_else(|| local_date_time(trimmed).map(|d| d.date()))
                .or_else(|| offset_date_time(trimmed).ok().map(|d| d.date_naive()))
                .or_else(|| month_day_year(trimmed).ok())
                .or_else(|| day_month_year(trimmed))
        }

        pub(super) fn boolean(text: &str) -> Option<bool> {
            match text.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "y" | "1" | "on" => Some(true),
                "false" | "no" | "n" | "0" | "off" | "" => Some(false),
                _ => None,
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn date_fast_paths_agree_with_chrono(
            year in 0u32..10_000,
            month in 0u32..14,
            day in 0u32..33,
            hour in 0u32..25,
            minute in 0u32..61,
            second in 0u32..62,
            separator in proptest::sample::select(vec!["T", " ", "t", "x", "  "]),
            padding in proptest::sample::select(vec!["", " ", "\t"]),
        ) {
            let date = format!("{padding}{year:04}-{month:02}-{day:02}{padding}");
            let date_time = format!(
                "{padding}{year:04}-{month:02}-{day:02}{separator}{hour:02}:{minute:02}:{second:02}"
            );
            let european = format!("{padding}{day:02}-{month:02}-{year:04}");
            proptest::prop_assert_eq!(local_date_time(&date_time).ok(), reference::local_date_time(&date_time));
            proptest::prop_assert_eq!(any_date(&date).ok(), reference::any_date(&date));
            proptest::prop_assert_eq!(any_date(&date_time).ok(), reference::any_date(&date_time));
            proptest::prop_assert_eq!(day_month_year(&european).ok(), reference::day_month_year(&european));
            proptest::prop_assert_eq!(any_date(&european).ok(), reference::any_date(&european));
        }

        #[test]
        fn date_fast_paths_agree_with_chrono_on_any_text(text in "[0-9T: .-]{0,24}") {
            proptest::prop_assert_eq!(local_date_time(&text).ok(), reference::local_date_time(&text));
            proptest::prop_assert_eq!(any_date(&text).ok(), reference::any_date(&text));
            proptest::prop_assert_eq!(day_month_year(&text).ok(), reference::day_month_year(&text));
        }

        #[test]
        fn plain_decimals_read_as_the_cleaning_path_does(
            text in "-?[0-9]{0,12}(\\.[0-9]{0,12})?|[0-9.,€ -]{0,16}",
        ) {
            // The cleaning path alone: what `decimal` did before its fast path.
            let kept: String = text.trim().chars().filter(|c| !matches!(c, ' ' | '€' | '$' | '£')).collect();
            let commas = kept.matches(',').count();
            let decimal_comma = !kept.contains('.')
                && commas == 1
                && kept.rsplit(',').next().is_some_and(|tail| tail.len() != 3);
            let cleaned = if decimal_comma { kept.replace(',', ".") } else { kept.replace(',', "") };
            let expected = Decimal::from_str(&cleaned).or_else(|_| Decimal::from_scientific(&cleaned)).ok();
            proptest::prop_assert_eq!(decimal(&text).ok(), expected);
        }

        #[test]
        fn non_empty_trims_as_before(text in "[ \t\n\x0b\u{a0}\u{2003}a-zé]{0,8}") {
            let trimmed = text.trim();
            let expected = (!trimmed.is_empty()).then(|| trimmed.to_owned());
            proptest::prop_assert_eq!(non_empty(Some(text.clone())), expected);
        }

        #[test]
        fn booleans_read_as_before(text in "[ a-zA-Z01]{0,6}") {
            proptest::prop_assert_eq!(boolean(&text).ok(), reference::boolean(&text));
        }
    }

    #[test]
    fn leap_seconds_and_fractions_still_read() {
        // Neither takes the fast path; chrono reads both.
        assert_eq!(
            local_date_time("2016-12-31T23:59:60").ok(),
            reference::local_date_time("2016-12-31T23:59:60")
        );
        assert!(local_date_time("2016-12-31T23:59:60").is_ok());
        assert_eq!(
            local_date_time("2024-01-31T13:45:00.25")
                .unwrap()
                .to_string(),
            "2024-01-31 13:45:00.250"
        );
    }

    #[test]
    fn each_keeps_order_and_numbers_the_failing_item() {
        let doubled = each(vec![1, 2, 3], |n| Ok(n * 2)).unwrap();
        assert_eq!(doubled, [2, 4, 6]);
        let error = each(vec![1, 2, 3], |n| {
            if n == 3 {
                Err(FieldError::new("bad"))
            } else {
                Ok(n)
            }
        })
        .unwrap_err();
        assert_eq!(error.path(), "[2]");
        assert_eq!(
            into_scalar_text(serde_json::json!("x")),
            Some("x".to_owned())
        );
        assert_eq!(into_scalar_text(serde_json::json!(7)), Some("7".to_owned()));
        assert_eq!(into_scalar_text(serde_json::json!(null)), None);
    }
}
