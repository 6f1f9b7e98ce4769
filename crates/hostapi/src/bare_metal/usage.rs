//! Network usage of a bare metal server (quirk 9): bandwidth and data traffic over an
//! interval, as JSON (figures with units, per switch port) or as PNG graphs.

use chrono::NaiveDate;
use reqwest::header::{ACCEPT, HeaderValue};
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::BareMetals;
use crate::Error;
use crate::model::{BareMetalId, BitRate, DataSize, Extra};
use crate::read::shapes::prefixed;
use crate::read::text::{self, Parsed};
use crate::read::{Cursor, FieldError, Fields, Json};
use crate::transport::Answer;

/// Bandwidth and data traffic of a bare metal server over an interval (the combined
/// view, `GET /v1/bareMetals/{id}/networkUsage`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct BareMetalNetworkUsage {
    /// Bandwidth.
    pub bandwidth: Option<BandwidthUsage>,
    /// Data traffic (sent as `dataTraffic` in this view; `datatraffic` is read too).
    pub data_traffic: Option<DataTrafficUsage>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// Bandwidth usage: every figure is a rate ("11 Mbps").
pub type BandwidthUsage = UsageReport<BitRate>;

/// Data traffic usage: every figure is an amount of data ("1100.50 GB").
pub type DataTrafficUsage = UsageReport<DataSize>;

/// Usage of one kind (bandwidth or data traffic) over an interval. `Q` is the kind of
/// figure: [`BitRate`] for bandwidth, [`DataSize`] for data traffic. A unit the model
/// does not know is kept (as the unit's `Unknown` value), never refused.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct UsageReport<Q> {
    /// The server's id.
    pub server_id: Option<BareMetalId>,
    /// The server's name.
    pub server_name: Option<String>,
    /// The interval measured.
    pub interval: Option<UsageInterval>,
    /// The total over all ports (`measurement.total`).
    pub total: Option<Q>,
    /// The average (`measurement.average`; bandwidth only).
    pub average: Option<Q>,
    /// The usage per measured switch port (`measurement.node`), whichever shape the
    /// wire used: one port's figures, an array of them, or an object keyed by port.
    pub ports: Vec<PortUsage<Q>>,
    /// Usage above the contract's threshold.
    pub overusage: Option<Q>,
    /// The contract's monthly threshold.
    pub monthly_threshold: Option<Q>,
    /// Fields the model does not name (those of `measurement` and `interval` under
    /// `measurement.<key>` and `interval.<key>`).
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The usage measured on one switch port.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct PortUsage<Q> {
    /// The port, when the wire names it (the key of a per-port object, or a `port`
    /// or `name` field of an array entry).
    pub port: Option<String>,
    /// Incoming (`in`).
    pub incoming: Option<Q>,
    /// Outgoing (`out`).
    pub outgoing: Option<Q>,
    /// Both ways (`total`).
    pub total: Option<Q>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The interval a usage report covers (`DD-MM-YYYY` on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct UsageInterval {
    /// The first day.
    pub from: Option<NaiveDate>,
    /// The last day.
    pub to: Option<NaiveDate>,
}

/// The first bytes of every PNG file.
const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];

/// The query form of a date (`DD-MM-YYYY`), and the interval checked.
fn interval_query(from: NaiveDate, to: NaiveDate) -> Result<(String, String), Error> {
    if from > to {
        return Err(Error::invalid(
            "from",
            format!("{from} is after to ({to}): the interval would be empty"),
        ));
    }
    let query = |date: NaiveDate| date.format("%d-%m-%Y").to_string();
    Ok((query(from), query(to)))
}

impl BareMetals {
    /// The server's bandwidth and data traffic from `from` to `to` (both days included;
    /// sent as `DD-MM-YYYY`). Refuses `from` after `to` before sending.
    pub async fn network_usage(
        &self,
        id: &BareMetalId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<BareMetalNetworkUsage, Error> {
        let (from, to) = interval_query(from, to)?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .get_bare_metal_network_usage()
                    .bare_metal_id(id.as_str())
                    .date_from(from.clone())
                    .date_to(to.clone())
            })
            .await?;
        answer.one(combined)
    }

    /// The server's bandwidth from `from` to `to` (the `bandwidth` view, as JSON).
    pub async fn bandwidth(
        &self,
        id: &BareMetalId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<BandwidthUsage, Error> {
        let (from, to) = interval_query(from, to)?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| bandwidth_view(infra, id, &from, &to))
            .await?;
        answer.one(bandwidth_answer)
    }

    /// The server's data traffic from `from` to `to` (the `datatraffic` view, as JSON).
    pub async fn data_traffic(
        &self,
        id: &BareMetalId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<DataTrafficUsage, Error> {
        let (from, to) = interval_query(from, to)?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| data_traffic_view(infra, id, &from, &to))
            .await?;
        answer.one(data_traffic_answer)
    }

    /// The service's bandwidth graph from `from` to `to`, as PNG bytes (the same view,
    /// asked for with `Accept: image/png`).
    pub async fn bandwidth_png(
        &self,
        id: &BareMetalId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<u8>, Error> {
        let (from, to) = interval_query(from, to)?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call_changed(|| bandwidth_view(infra, id, &from, &to), accept_png)
            .await?;
        png(answer)
    }

    /// The service's data traffic graph from `from` to `to`, as PNG bytes.
    pub async fn data_traffic_png(
        &self,
        id: &BareMetalId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<u8>, Error> {
        let (from, to) = interval_query(from, to)?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call_changed(|| data_traffic_view(infra, id, &from, &to), accept_png)
            .await?;
        png(answer)
    }
}

/// The request of the `bandwidth` view (JSON or PNG, by `Accept`).
fn bandwidth_view<'c>(
    infra: &'c hostapi_raw_infra::Client,
    id: &BareMetalId,
    from: &str,
    to: &str,
) -> hostapi_raw_infra::builder::GetBareMetalBandwidthUsage<'c> {
    infra
        .get_bare_metal_bandwidth_usage()
        .bare_metal_id(id.as_str())
        .date_from(from)
        .date_to(to)
}

/// The request of the `datatraffic` view (JSON or PNG, by `Accept`).
fn data_traffic_view<'c>(
    infra: &'c hostapi_raw_infra::Client,
    id: &BareMetalId,
    from: &str,
    to: &str,
) -> hostapi_raw_infra::builder::GetBareMetalDataTrafficUsage<'c> {
    infra
        .get_bare_metal_data_traffic_usage()
        .bare_metal_id(id.as_str())
        .date_from(from)
        .date_to(to)
}

/// Asks a usage view for its graph: the generated client asks for JSON (one schema per
/// operation), the view answers PNG to `Accept: image/png` (quirk 9).
fn accept_png(request: &mut reqwest::Request) {
    request
        .headers_mut()
        .insert(ACCEPT, HeaderValue::from_static("image/png"));
}

/// A PNG answer's bytes; anything else is a decode error.
fn png(answer: Answer) -> Result<Vec<u8>, Error> {
    if answer.body.starts_with(&PNG_SIGNATURE) {
        return Ok(answer.body.to_vec());
    }
    let found = match answer.content_type.as_ref().and_then(|v| v.to_str().ok()) {
        Some(kind) => format!("`{kind}` content"),
        None => "content without a type".to_owned(),
    };
    let empty = if answer.body.is_empty() {
        " (empty)"
    } else {
        ""
    };
    Err(crate::read::decode_error(
        Some(&answer.call),
        String::new(),
        format!(
            "expected a PNG image, found {found}{empty} that does not start with the PNG signature"
        ),
        answer.excerpt(),
        None,
    ))
}

/// `{bandwidth, dataTraffic}` (or `datatraffic`) → both reports.
pub(crate) fn combined(
    cursor: &mut Cursor,
    body: Json<'_>,
) -> Result<BareMetalNetworkUsage, FieldError> {
    cursor.object(body, |f| {
        f.alias("datatraffic", "dataTraffic");
        Ok(BareMetalNetworkUsage {
            bandwidth: f.object("bandwidth", |r| report(r, text::bit_rate)),
            data_traffic: f.object("dataTraffic", |r| report(r, text::data_size)),
            extra: f.unread(),
        })
    })
}

/// `{bandwidth: report}`.
pub(crate) fn bandwidth_answer(
    cursor: &mut Cursor,
    body: Json<'_>,
) -> Result<BandwidthUsage, FieldError> {
    usage_under(cursor, body, &["bandwidth"], text::bit_rate)
}

/// `{datatraffic: report}` (or `dataTraffic`).
pub(crate) fn data_traffic_answer(
    cursor: &mut Cursor,
    body: Json<'_>,
) -> Result<DataTrafficUsage, FieldError> {
    usage_under(
        cursor,
        body,
        &["datatraffic", "dataTraffic"],
        text::data_size,
    )
}

/// The one report of a view, under the first of `keys` present.
fn usage_under<Q>(
    cursor: &mut Cursor,
    body: Json<'_>,
    keys: &[&'static str],
    read: fn(&str) -> Parsed<Q>,
) -> Result<UsageReport<Q>, FieldError> {
    cursor.object(body, |f| {
        let key = keys.iter().copied().find(|k| f.has(k)).unwrap_or(keys[0]);
        let mut usage = f
            .object(key, |r| report(r, read))
            .ok_or_else(|| f.cursor().error(key, "the report is absent"))?;
        usage.extra.extend(f.unread());
        Ok(usage)
    })
}

fn report<Q>(f: &mut Fields<'_, '_>, read: fn(&str) -> Parsed<Q>) -> UsageReport<Q> {
    let measurement = f.object("measurement", |m| {
        let ports = ports(m, read);
        (
            m.parsed("total", read),
            m.parsed("average", read),
            ports,
            m.unread(),
        )
    });
    let interval = f.object("interval", |i| {
        (
            UsageInterval {
                from: i.parsed("from", text::any_date),
                to: i.parsed("to", text::any_date),
            },
            i.unread(),
        )
    });
    let mut usage = UsageReport {
        server_id: f.reference("serverId"),
        server_name: f.text("serverName"),
        interval: interval.as_ref().map(|(i, _)| *i),
        total: None,
        average: None,
        ports: Vec::new(),
        overusage: f.parsed("overusage", read),
        monthly_threshold: f.parsed("monthlyThreshold", read),
        extra: f.unread(),
    };
    if let Some((total, average, ports, rest)) = measurement {
        usage.total = total;
        usage.average = average;
        usage.ports = ports;
        usage.extra.extend(prefixed("measurement", rest));
    }
    if let Some((_, rest)) = interval {
        usage.extra.extend(prefixed("interval", rest));
    }
    usage
}

/// `node`: one node (`{in, out, total}`), a list of ports (each naming itself with
/// `port` or `name`), or an object keyed by port.
fn ports<Q>(f: &mut Fields<'_, '_>, read: fn(&str) -> Parsed<Q>) -> Vec<PortUsage<Q>> {
    let Some(node) = f.take("node") else {
        return Vec::new();
    };
    let single = matches!(&node, Json::Object(members)
        if members.iter().any(|(k, _)| matches!(k.as_ref(), "in" | "out" | "total")));
    let node = match node {
        Json::Object(members) if !single => Json::Array(
            members
                .into_iter()
                .map(|(name, port)| match port {
                    Json::Object(mut fields) => {
                        fields.insert(0, ("port".into(), Json::String(name)));
                        Json::Object(fields)
                    }
                    other => other,
                })
                .collect(),
        ),
        // One port's figures: a list of one.
        single_node @ Json::Object(_) => Json::Array(vec![single_node]),
        other => other,
    };
    f.put("node", node);
    f.objects("node", |p| {
        p.alias("name", "port");
        Ok(PortUsage {
            port: p.text("port"),
            incoming: p.parsed("in", read),
            outgoing: p.parsed("out", read),
            total: p.parsed("total", read),
            extra: p.unread(),
        })
    })
}
