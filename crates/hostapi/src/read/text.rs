//! Reading values the wire writes as text: booleans, exact decimals, the five date
//! formats, sizes and rates with units, contract terms. Each reader says what it
//! expected and what it found; none guesses (a comma that could mean thousands or
//! decimals, or a unit whose letter case does not say bits or bytes, is refused).

use std::borrow::Cow;
use std::str::FromStr;

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use crate::model::{BitRate, ContractTerm, DataSize, DataUnit, RateUnit, TermUnit};

/// `text.trim()`, without looking at its characters when it begins and ends with a
/// visible ASCII character (nearly all text on the wire): `str::trim` decodes the
/// characters at both ends to test them for Unicode whitespace.
pub(crate) fn trim(text: &str) -> &str {
    match text.as_bytes() {
        [first, .., last] if first.is_ascii_graphic() && last.is_ascii_graphic() => text,
        [only] if only.is_ascii_graphic() => text,
        _ => text.trim(),
    }
}

/// What a reader expected, and what it found instead.
pub(crate) type Parsed<T> = Result<T, String>;

/// `value` in a message: quoted, cut at 60 characters.
pub(crate) fn found(value: &str) -> String {
    let shown: String = value.chars().take(60).collect();
    if shown.len() < value.len() {
        format!("`{shown}…`")
    } else {
        format!("`{shown}`")
    }
}

/// A boolean from `true`/`false`, `1`/`0` or `yes`/`no`, in any letter case.
pub(crate) fn boolean(text: &str) -> Parsed<bool> {
    let word = trim(text);
    let is = |spellings: &[&str]| spellings.iter().any(|s| word.eq_ignore_ascii_case(s));
    if is(&["true", "yes", "1"]) {
        Ok(true)
    } else if is(&["false", "no", "0"]) {
        Ok(false)
    } else {
        Err(format!(
            "expected a boolean (true/false, yes/no, 1/0), found {}",
            found(text)
        ))
    }
}

/// An exact decimal from text: `12.99`, `-3`, `1e3`, `1,234.50` (a comma before a
/// decimal point separates thousands). A comma without a point is ambiguous (`1,250` is
/// 1250 or 1.25 depending on who wrote it) and refused. A currency sign before or
/// after the number is ignored. The value is normalised (`129.00` reads as `129`), so
/// one amount has one representation whatever the wire's spelling.
pub(crate) fn decimal(text: &str) -> Parsed<Decimal> {
    let number = trim(
        trim(text)
            .trim_start_matches(['€', '$', '£'])
            .trim_end_matches(['€', '$', '£']),
    );
    let error = |why: &str| format!("expected a decimal number, found {}{why}", found(text));
    let plain = if number.contains(',') {
        Cow::Owned(
            thousands_removed(number)
                .ok_or_else(|| error(" (a comma without a decimal point is ambiguous)"))?,
        )
    } else {
        Cow::Borrowed(number)
    };
    let plain = plain.strip_prefix('+').unwrap_or(&plain);
    Decimal::from_str(plain)
        .or_else(|_| Decimal::from_scientific(plain))
        .map(|d| d.normalize())
        .map_err(|_| error(""))
}

/// `1,234,567.50` without its thousands separators, when every comma separates a group
/// of three digits and a decimal point follows them; `None` otherwise.
fn thousands_removed(number: &str) -> Option<String> {
    let (whole, fraction) = number.split_once('.')?;
    let digits = whole.trim_start_matches(['-', '+']);
    let mut groups = digits.split(',');
    let first = groups.next()?;
    let well_formed = (1..=3).contains(&first.len())
        && groups.all(|g| g.len() == 3)
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b',');
    well_formed.then(|| format!("{}.{fraction}", whole.replace(',', "")))
}

/// An exact decimal from a JSON number: the shortest text that reads back as the same
/// `f64`, so `12.99` stays `12.99` rather than `12.9900000000000002131628…`.
pub(crate) fn decimal_from_f64(value: f64) -> Parsed<Decimal> {
    if !value.is_finite() {
        return Err(format!("expected a finite number, found {value}"));
    }
    decimal(&value.to_string())
}

/// An integer from text (`"10"`, `" 10 "`, `"10.0"`).
pub(crate) fn integer(text: &str) -> Parsed<i128> {
    let trimmed = trim(text);
    let plain = trimmed.strip_prefix('+').unwrap_or(trimmed);
    if let Ok(n) = plain.parse::<i128>() {
        return Ok(n);
    }
    decimal(trimmed)
        .ok()
        .filter(|d| d.fract().is_zero())
        .and_then(|d| i128::try_from(d).ok())
        .ok_or_else(|| format!("expected an integer, found {}", found(text)))
}

/// `YYYY-MM-DD` written exactly so, the wire's usual form: read by hand, as reading by
/// a format string costs more than the rest of a record. `None` for anything else
/// (another spelling, or no such day), which the format strings then read.
fn plain_date(text: &[u8]) -> Option<NaiveDate> {
    match text {
        [y1, y2, y3, y4, b'-', m1, m2, b'-', d1, d2] => NaiveDate::from_ymd_opt(
            i32::try_from(digits(&[*y1, *y2, *y3, *y4])?).ok()?,
            digits(&[*m1, *m2])?,
            digits(&[*d1, *d2])?,
        ),
        _ => None,
    }
}

/// `YYYY-MM-DDThh:mm:ss` (or with a space for the `T`) written exactly so; see
/// [`plain_date`].
fn plain_date_time(text: &[u8]) -> Option<NaiveDateTime> {
    match text {
        [date @ .., b'T' | b' ', h1, h2, b':', m1, m2, b':', s1, s2] if date.len() == 10 => {
            plain_date(date)?.and_hms_opt(
                digits(&[*h1, *h2])?,
                digits(&[*m1, *m2])?,
                digits(&[*s1, *s2])?,
            )
        }
        _ => None,
    }
}

/// The number ASCII digits write, when they are all digits.
fn digits(text: &[u8]) -> Option<u32> {
    text.iter().try_fold(0, |number, byte| {
        byte.is_ascii_digit()
            .then(|| number * 10 + u32::from(byte - b'0'))
    })
}

/// Local ISO 8601 without offset: `YYYY-MM-DDThh:mm:ss` (a space instead of `T`,
/// fractional seconds and a missing seconds field are accepted too).
pub(crate) fn local_date_time(text: &str) -> Parsed<NaiveDateTime> {
    let text = trim(text);
    if let Some(plain) = plain_date_time(text.as_bytes()) {
        return Ok(plain);
    }
    [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
    ]
    .iter()
    .find_map(|format| NaiveDateTime::parse_from_str(text, format).ok())
    .ok_or_else(|| {
        format!(
            "expected a local date-time like 2024-01-31T13:45:00, found {}",
            found(text)
        )
    })
}

/// A timestamp with an offset: `YYYY-MM-DDThh:mm:ss+hhmm` (the wire's form), `+hh:mm`
/// or `Z` (RFC 3339), with optional fractional seconds.
pub(crate) fn offset_date_time(text: &str) -> Parsed<DateTime<FixedOffset>> {
    let text = trim(text);
    DateTime::parse_from_rfc3339(text)
        .ok()
        .or_else(|| {
            ["%Y-%m-%dT%H:%M:%S%.f%z", "%Y-%m-%d %H:%M:%S%.f%z"]
                .iter()
                .find_map(|format| DateTime::parse_from_str(text, format).ok())
        })
        .ok_or_else(|| {
            format!(
                "expected a timestamp with offset like 2024-01-31T13:45:00+0100, found {}",
                found(text)
            )
        })
}

/// A date shown as `Mon d, yyyy` (`Jan 5, 2024`; full month names too).
pub(crate) fn month_day_year(text: &str) -> Parsed<NaiveDate> {
    let text = trim(text);
    ["%b %d, %Y", "%B %d, %Y", "%b %e, %Y"]
        .iter()
        .find_map(|format| NaiveDate::parse_from_str(text, format).ok())
        .ok_or_else(|| format!("expected a date like Jan 5, 2024, found {}", found(text)))
}

/// A date shown as `DD-MM-YYYY`.
pub(crate) fn day_month_year(text: &str) -> Parsed<NaiveDate> {
    NaiveDate::parse_from_str(trim(text), "%d-%m-%Y").map_err(|_| {
        format!(
            "expected a date like 31-01-2024 (DD-MM-YYYY), found {}",
            found(text)
        )
    })
}

/// Any of the wire's date spellings, as a calendar date: contract and billing dates
/// come as `YYYY-MM-DD`, local date-times, offset timestamps, `Mon d, yyyy` or
/// `DD-MM-YYYY` depending on the view.
pub(crate) fn any_date(text: &str) -> Parsed<NaiveDate> {
    let trimmed = trim(text);
    if let Some(date) = plain_date(trimmed.as_bytes()) {
        return Ok(date);
    }
    if let Some(plain) = plain_date_time(trimmed.as_bytes()) {
        return Ok(plain.date());
    }
    NaiveDate::parse_from_str(trimmed, "%Y-%m-%d")
        .ok()
        .or_else(|| local_date_time(trimmed).ok().map(|d| d.date()))
        .or_else(|| offset_date_time(trimmed).ok().map(|d| d.date_naive()))
        .or_else(|| month_day_year(trimmed).ok())
        .or_else(|| day_month_year(trimmed).ok())
        .ok_or_else(|| format!("expected a date, found {}", found(text)))
}

/// Whether a date text is the all-zero date some views send for "none".
pub(crate) fn is_zero_date(text: &str) -> bool {
    text.trim_start().starts_with("0000-00-00")
}

/// A point in time from Unix seconds.
pub(crate) fn unix_seconds(seconds: i64) -> Parsed<DateTime<FixedOffset>> {
    DateTime::from_timestamp(seconds, 0)
        .map(|t| t.fixed_offset())
        .ok_or_else(|| format!("expected Unix seconds, found {seconds} (out of range)"))
}

/// Splits "1100.50 GB", "64GB", "11 Mbps" into the number and the unit text.
fn amount_and_unit(text: &str) -> Option<(Decimal, &str)> {
    let text = trim(text);
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '+')))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    Some((decimal(number).ok()?, trim(unit)))
}

/// A data size with its unit ("1100.50 GB", "64GB", "10 Gb" — gigabits). A bare number
/// has no unit to assume and is refused; a unit whose letter case does not say bits or
/// bytes is kept as [`DataUnit::Unknown`].
pub(crate) fn data_size(text: &str) -> Parsed<DataSize> {
    match amount_and_unit(text) {
        Some((amount, unit)) if !unit.is_empty() => Ok(DataSize {
            amount,
            unit: data_unit(unit),
        }),
        _ => Err(format!(
            "expected a size with a unit like 64 GB, found {}",
            found(text)
        )),
    }
}

/// A power of the prefix letter: `K`/`k` kilo, `M` mega, `G` giga, `T` tera, `P` peta
/// (lower-case `m`, `g`, `t`, `p` are not data prefixes: `mb` would be a millibit).
fn si_power(prefix: &str) -> Option<u8> {
    Some(match prefix {
        "" => 0,
        "K" | "k" => 1,
        "M" => 2,
        "G" => 3,
        "T" => 4,
        "P" => 5,
        _ => return None,
    })
}

/// Words for the prefixes, in any letter case (`gigabytes`, `Megabits`).
fn word_power(word: &str) -> Option<u8> {
    let lower = word.to_ascii_lowercase();
    Some(match lower.as_str() {
        "" => 0,
        "kilo" => 1,
        "mega" => 2,
        "giga" => 3,
        "tera" => 4,
        "peta" => 5,
        _ => return None,
    })
}

/// Whether a unit counts bits or bytes, and its decimal power of 1000; `None` when the
/// text does not say without guessing.
fn unit_parts(unit: &str) -> Option<(bool, u8)> {
    // Words first: "gigabytes", "Megabit", "bytes".
    let lower = unit.to_ascii_lowercase();
    let singular = lower.strip_suffix('s').unwrap_or(&lower);
    for (suffix, bits) in [("byte", false), ("bit", true)] {
        if let Some(prefix) = singular.strip_suffix(suffix) {
            // A word ("megabit") or a symbol in its letter case ("Mbit").
            let symbol = unit.get(..prefix.len()).unwrap_or("");
            return word_power(prefix)
                .or_else(|| si_power(symbol))
                .map(|p| (bits, p));
        }
    }
    // Symbols: the last letter's case says bits (`b`) or bytes (`B`).
    if let Some(prefix) = unit.strip_suffix('B') {
        return si_power(prefix).map(|p| (false, p));
    }
    if let Some(prefix) = unit.strip_suffix('b') {
        return si_power(prefix).map(|p| (true, p));
    }
    None
}

/// A data unit, bits and bytes told apart by letter case ("GB" gigabytes, "Gb" and
/// "Gbit" gigabits, "GiB" gibibytes); anything else is kept as sent.
pub(crate) fn data_unit(text: &str) -> DataUnit {
    let unit = trim(text);
    let binary = match unit {
        "KiB" => Some(DataUnit::Kibibytes),
        "MiB" => Some(DataUnit::Mebibytes),
        "GiB" => Some(DataUnit::Gibibytes),
        "TiB" => Some(DataUnit::Tebibytes),
        _ => None,
    };
    if let Some(binary) = binary {
        return binary;
    }
    match unit_parts(unit) {
        Some((false, 0)) => DataUnit::Bytes,
        Some((false, 1)) => DataUnit::Kilobytes,
        Some((false, 2)) => DataUnit::Megabytes,
        Some((false, 3)) => DataUnit::Gigabytes,
        Some((false, 4)) => DataUnit::Terabytes,
        Some((false, 5)) => DataUnit::Petabytes,
        Some((true, 0)) => DataUnit::Bits,
        Some((true, 1)) => DataUnit::Kilobits,
        Some((true, 2)) => DataUnit::Megabits,
        Some((true, 3)) => DataUnit::Gigabits,
        Some((true, 4)) => DataUnit::Terabits,
        _ => DataUnit::from_wire(unit),
    }
}

/// A rate with its unit: bits per second ("11 Mbps", "100 Mbit/s", "1 Gbps") or bytes
/// per second ("5 MBps", "5 MB/s"), told apart by letter case.
pub(crate) fn bit_rate(text: &str) -> Parsed<BitRate> {
    match amount_and_unit(text) {
        Some((amount, unit)) if !unit.is_empty() => Ok(BitRate {
            amount,
            unit: rate_unit(unit),
        }),
        _ => Err(format!(
            "expected a rate with a unit like 11 Mbps, found {}",
            found(text)
        )),
    }
}

/// A rate unit (see [`bit_rate`]); anything else is kept as sent.
pub(crate) fn rate_unit(text: &str) -> RateUnit {
    let unit = trim(text);
    let per_second = unit
        .strip_suffix("ps")
        .or_else(|| unit.strip_suffix("/s"))
        .or_else(|| unit.strip_suffix("/sec"));
    match per_second.and_then(unit_parts) {
        Some((true, 0)) => RateUnit::BitsPerSecond,
        Some((true, 1)) => RateUnit::KilobitsPerSecond,
        Some((true, 2)) => RateUnit::MegabitsPerSecond,
        Some((true, 3)) => RateUnit::GigabitsPerSecond,
        Some((true, 4)) => RateUnit::TerabitsPerSecond,
        Some((false, 0)) => RateUnit::BytesPerSecond,
        Some((false, 1)) => RateUnit::KilobytesPerSecond,
        Some((false, 2)) => RateUnit::MegabytesPerSecond,
        Some((false, 3)) => RateUnit::GigabytesPerSecond,
        _ => RateUnit::from_wire(unit),
    }
}

/// A contract term in each form the documents show: a number of years (the documented
/// integer, `3` or `"3"`), `"1 year"`, `"2 years"`, the display form `"3 year(s)"`, and
/// the same with months (`"12 months"`, `"1 month(s)"`, `"6 mos"`); any letter case,
/// with or without a space before the unit.
pub(crate) fn contract_term(text: &str) -> Parsed<ContractTerm> {
    let text = trim(text);
    let error = || {
        format!(
            "expected a term like `1 year`, `3 year(s)`, `12 months` or a number of years, found {}",
            found(text)
        )
    };
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let amount: u32 = number.parse().map_err(|_| error())?;
    let unit = trim(unit);
    if unit.is_empty() {
        return Ok(ContractTerm {
            amount,
            unit: TermUnit::Years,
        });
    }
    // "year(s)" and "years" are the plural written two ways; "year" the singular.
    let singular = unit
        .strip_suffix("(s)")
        .or_else(|| unit.strip_suffix("(S)"))
        .unwrap_or(unit)
        .trim_end_matches(['s', 'S']);
    let is = |words: &[&str]| words.iter().any(|w| singular.eq_ignore_ascii_case(w));
    let unit = if is(&["year", "yr"]) {
        TermUnit::Years
    } else if is(&["month", "mo"]) {
        TermUnit::Months
    } else if unit.chars().all(|c| c.is_alphabetic() || "() ".contains(c)) {
        // A unit no document names is kept as sent.
        TermUnit::from_wire(unit)
    } else {
        return Err(error());
    };
    Ok(ContractTerm { amount, unit })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The date readers as they were before the hand-written fast paths: by format
    /// strings only.
    mod by_formats {
        use super::super::{day_month_year, month_day_year, offset_date_time};
        use chrono::{NaiveDate, NaiveDateTime};

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

        pub(super) fn any_date(text: &str) -> Option<NaiveDate> {
            let trimmed = text.trim();
            NaiveDate::parse_from_str(trimmed, "%Y-%m-%d")
                .ok()
                .or_else(|| local_date_time(trimmed).map(|d| d.date()))
                .or_else(|| offset_date_time(trimmed).ok().map(|d| d.date_naive()))
                .or_else(|| month_day_year(trimmed).ok())
                .or_else(|| day_month_year(trimmed).ok())
        }
    }

    /// Date texts near the wire's forms: digits, separators and spaces where the
    /// documented forms have them, any of them anywhere else.
    fn date_like() -> impl Strategy<Value = String> {
        let digit = || "[0-9]";
        prop_oneof![
            "[0-9T: +.-]{0,22}",
            (
                "[0-9]{4}",
                "[0-9]{2}",
                "[0-9]{2}",
                "[T t_]?",
                "[0-9]{2}",
                "[0-9]{2}",
                "[0-9]{2}",
                "(\\.[0-9]{1,4})?",
                "( |Z|\\+0100)?",
            )
                .prop_map(|(y, m, d, t, h, mi, s, f, z)| format!(
                    "{y}-{m}-{d}{t}{h}:{mi}:{s}{f}{z}"
                )),
            (digit(), digit(), "[0-9]{4}-[0-1][0-9]-[0-3][0-9]")
                .prop_map(|(a, b, date)| format!("{date}T{a}{b}:00:00")),
            "[ ]?[0-9]{1,4}-[0-9]{1,2}-[0-9]{1,2}[ ]?",
        ]
    }

    proptest! {
        #[test]
        fn trim_is_str_trim(text in "[ a\\t\u{a0}\u{3000}é~\n-]{0,6}") {
            prop_assert_eq!(trim(&text), text.trim());
        }

        #[test]
        fn local_date_times_read_as_by_the_format_strings(text in date_like()) {
            prop_assert_eq!(local_date_time(&text).ok(), by_formats::local_date_time(&text));
        }

        #[test]
        fn any_dates_read_as_by_the_format_strings(text in date_like()) {
            prop_assert_eq!(any_date(&text).ok(), by_formats::any_date(&text));
        }

        #[test]
        fn valid_days_and_times_read_as_by_the_format_strings(
            day in 0u32..3_600_000,
            seconds in 0u32..86_400,
            space in any::<bool>(),
        ) {
            let date = NaiveDate::from_num_days_from_ce_opt(i32::try_from(day).unwrap()).unwrap();
            let time = chrono::NaiveTime::from_num_seconds_from_midnight_opt(seconds, 0).unwrap();
            let format = if space { "%Y-%m-%d %H:%M:%S" } else { "%Y-%m-%dT%H:%M:%S" };
            let text = date.and_time(time).format(format).to_string();
            prop_assert_eq!(local_date_time(&text).ok(), Some(date.and_time(time)));
            prop_assert_eq!(by_formats::local_date_time(&text), Some(date.and_time(time)));
            prop_assert_eq!(any_date(&text).ok(), Some(date));
            let day_only = date.format("%Y-%m-%d").to_string();
            prop_assert_eq!(any_date(&day_only).ok(), by_formats::any_date(&day_only));
        }
    }

    #[test]
    fn booleans_in_the_documented_spellings_only() {
        for yes in ["true", "TRUE", "Yes", "1", " yes "] {
            assert_eq!(boolean(yes), Ok(true), "{yes}");
        }
        for no in ["false", "No", "0", "NO"] {
            assert_eq!(boolean(no), Ok(false), "{no}");
        }
        for other in ["maybe", "on", "", "2"] {
            assert!(boolean(other).is_err(), "{other}");
        }
    }

    #[test]
    fn decimals_are_exact_normalised_and_never_guessed() {
        let read = |t: &str| decimal(t).map(|d| d.to_string());
        assert_eq!(read("12.99"), Ok("12.99".into()));
        assert_eq!(read("129.00"), Ok("129".into()));
        assert_eq!(read("+3"), Ok("3".into()));
        assert_eq!(read("1e3"), Ok("1000".into()));
        assert_eq!(read("1,234.50"), Ok("1234.5".into()));
        assert_eq!(read("-1,234,567.25"), Ok("-1234567.25".into()));
        assert_eq!(read("€ 9.5"), Ok("9.5".into()));
        for ambiguous in ["1,250", "24,50", "1,2,3.5", "1,23.5", "12,5000.1"] {
            let message = decimal(ambiguous).unwrap_err();
            assert!(message.contains(ambiguous), "{message}");
        }
        assert!(decimal("twelve").is_err());
        assert_eq!(decimal_from_f64(12.99).unwrap().to_string(), "12.99");
        assert_eq!(decimal_from_f64(129.0).unwrap(), decimal("129.00").unwrap());
        assert!(decimal_from_f64(f64::NAN).is_err());
    }

    #[test]
    fn integers_from_text() {
        assert_eq!(integer(" 10 "), Ok(10));
        assert_eq!(integer("10.0"), Ok(10));
        assert_eq!(integer("-3"), Ok(-3));
        assert!(integer("10.5").is_err());
        assert!(integer("ten").is_err());
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
            day_month_year("31-01-2024").unwrap().to_string(),
            "2024-01-31"
        );
        assert_eq!(any_date("2024-01-31").unwrap().to_string(), "2024-01-31");
        assert!(is_zero_date("0000-00-00 00:00:00"));
        assert!(day_month_year("2024-01-31").is_err());
        assert!(unix_seconds(i64::MIN).is_err());
    }

    #[test]
    fn each_unit_the_documents_use_by_letter_case() {
        let unit = |t: &str| data_unit(t);
        assert_eq!(unit("B"), DataUnit::Bytes);
        assert_eq!(unit("MB"), DataUnit::Megabytes);
        assert_eq!(unit("GB"), DataUnit::Gigabytes);
        assert_eq!(unit("TB"), DataUnit::Terabytes);
        assert_eq!(unit("kB"), DataUnit::Kilobytes);
        assert_eq!(unit("Gb"), DataUnit::Gigabits);
        assert_eq!(unit("Gbit"), DataUnit::Gigabits);
        assert_eq!(unit("Mbit"), DataUnit::Megabits);
        assert_eq!(unit("megabits"), DataUnit::Megabits);
        assert_eq!(unit("Gigabytes"), DataUnit::Gigabytes);
        assert_eq!(unit("GiB"), DataUnit::Gibibytes);
        assert!(unit("gb").is_unknown());
        let rate = |t: &str| rate_unit(t);
        assert_eq!(rate("Mbps"), RateUnit::MegabitsPerSecond);
        assert_eq!(rate("Gbps"), RateUnit::GigabitsPerSecond);
        assert_eq!(rate("Mbit/s"), RateUnit::MegabitsPerSecond);
        assert_eq!(rate("MBps"), RateUnit::MegabytesPerSecond);
        assert_eq!(rate("MB/s"), RateUnit::MegabytesPerSecond);
        assert_eq!(rate("bps"), RateUnit::BitsPerSecond);
        assert!(rate("mbps").is_unknown());
        let size = data_size("1100.50 GB").unwrap();
        assert_eq!(size.bytes().unwrap().to_string(), "1100500000000");
        let bits = data_size("8 Gb").unwrap();
        assert_eq!(bits.bytes().unwrap().to_string(), "1000000000");
        assert!(data_size("64").is_err());
        assert_eq!(
            bit_rate("5 MBps")
                .unwrap()
                .bits_per_second()
                .unwrap()
                .to_string(),
            "40000000"
        );
    }

    #[test]
    fn contract_terms() {
        assert_eq!(contract_term("2 years").unwrap().months(), Some(24));
        assert_eq!(contract_term("12 months").unwrap().months(), Some(12));
        assert_eq!(contract_term("3").unwrap().months(), Some(36));
        assert_eq!(contract_term("6 Mos").unwrap().months(), Some(6));
        assert!(contract_term("forever").is_err());
        assert!(contract_term("3 years 2").is_err());
        assert!(contract_term("-1 year").is_err());
        assert_eq!(contract_term("3 year(s)").unwrap().months(), Some(36));
        assert_eq!(contract_term("1 month(s)").unwrap().months(), Some(1));
        assert_eq!(
            contract_term("2 quarters").unwrap().unit.as_wire(),
            "quarters"
        );
    }

    proptest::proptest! {
        /// Every display form of a term in years the documents show (`<n> year(s)`,
        /// "1 year", "2 years", the integer) reads as that many years, in any letter
        /// case and spacing.
        #[test]
        fn every_documented_year_form_reads_as_years(
            years in 0u32..10_000,
            form in 0usize..4,
            space in proptest::sample::select(vec!["", " ", "  "]),
            upper in proptest::bool::ANY,
        ) {
            let unit = ["year(s)", "years", "year", ""][form];
            let unit = if upper { unit.to_uppercase() } else { unit.to_owned() };
            let text = if unit.is_empty() {
                years.to_string()
            } else {
                format!("{years}{space}{unit}")
            };
            let term = contract_term(&text).map_err(proptest::test_runner::TestCaseError::fail)?;
            proptest::prop_assert_eq!(term.amount, years, "{}", text);
            proptest::prop_assert_eq!(term.unit, TermUnit::Years, "{}", text);
        }

        /// The same forms in months read as months.
        #[test]
        fn every_month_form_reads_as_months(months in 0u32..10_000, form in 0usize..4) {
            let text = format!("{months} {}", ["month(s)", "months", "month", "mos"][form]);
            let term = contract_term(&text).map_err(proptest::test_runner::TestCaseError::fail)?;
            proptest::prop_assert_eq!(term.months(), Some(months), "{}", text);
        }
    }
}
