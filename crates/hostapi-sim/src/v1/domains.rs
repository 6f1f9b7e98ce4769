//! Domains and their DNS records.

use std::borrow::Cow;

use super::*;

// ------------------------------------------------------------------ data

pub(crate) fn domain_name(i: usize) -> String {
    format!(
        "{}-{}.{}",
        WORDS[i % WORDS.len()],
        i + 1,
        TLDS[(i + i / WORDS.len()) % TLDS.len()]
    )
}

pub(crate) fn domain_index(cx: &Cx<'_>, name: &str) -> Result<usize, ApiError> {
    let lower = name.to_ascii_lowercase();
    let found = lower
        .split_once('.')
        .and_then(|(left, _)| left.rsplit_once('-'))
        .and_then(|(_, n)| parse_u64(n))
        .and_then(|n| n.checked_sub(1))
        .map(|i| i as usize)
        .filter(|i| *i < cx.ds().domains && domain_name(*i) == lower);
    found.ok_or_else(|| ApiError::not_found(format!("domain {name} not found")))
}

pub(crate) fn domain_editable(i: usize) -> bool {
    i % 4 < 2
}

pub(crate) fn check_editable(i: usize, name: &str) -> Result<(), ApiError> {
    if domain_editable(i) {
        Ok(())
    } else {
        Err(ApiError::forbidden(format!(
            "domain {name} is not editable"
        )))
    }
}

pub(crate) fn generated_records(i: usize) -> Vec<DnsRec> {
    let name = domain_name(i);
    let n = 5 + i % 4;
    let base = DNS_BASE + 1000 * i as u64;
    let mut out = Vec::with_capacity(n);
    let mk = |j: usize, host: String, t: &str, content: String, prio: Option<i64>| DnsRec {
        id: base + j as u64,
        host,
        rtype: t.into(),
        content,
        priority: prio,
    };
    for j in 0..n {
        out.push(match j {
            0 => mk(
                j,
                name.clone(),
                "A",
                util::ip_of(185, 100, (i * 4) as u64),
                None,
            ),
            1 => mk(
                j,
                name.clone(),
                "AAAA",
                format!("2001:db8:{:x}::1", i + 1),
                None,
            ),
            2 => mk(j, format!("www.{name}"), "CNAME", name.clone(), None),
            3 => mk(j, name.clone(), "MX", format!("mail.{name}"), Some(10)),
            4 => mk(j, name.clone(), "TXT", "v=spf1 mx -all".into(), None),
            5 => mk(
                j,
                format!("_sip._tcp.{name}"),
                "SRV",
                format!("5 5060 sip.{name}"),
                Some(20),
            ),
            6 => mk(
                j,
                name.clone(),
                "CAA",
                "0 issue \"ca.example\"".into(),
                None,
            ),
            _ => mk(j, name.clone(), "NS", "ns1.hosting.example".into(), None),
        });
    }
    out
}

/// Domain `i`'s records: the changed ones, or the generated ones.
pub(crate) fn records_of(st: &State, i: usize) -> Cow<'_, [DnsRec]> {
    match st.domains.get(&i).and_then(|d| d.records.as_deref()) {
        Some(recs) => Cow::Borrowed(recs),
        None => Cow::Owned(generated_records(i)),
    }
}

pub(crate) fn find_record(recs: &[DnsRec], id: &str) -> Result<usize, ApiError> {
    parse_u64(id)
        .and_then(|n| recs.iter().position(|r| r.id == n))
        .ok_or_else(|| ApiError::not_found(format!("DNS record {id} not found")))
}

pub(crate) const DNS_TYPES: &[&str] = &[
    "A", "AAAA", "CNAME", "MX", "SRV", "TXT", "NS", "CAA", "PTR", "SPF",
];

/// Validate (host, type, content, priority) as a DNS service would.
pub(crate) fn validate_record(
    host: &str,
    host_field: &str,
    rtype: &str,
    content: &str,
    content_field: &str,
    priority: Option<&str>,
) -> Result<(String, Option<i64>), ApiError> {
    if !util::is_hostname(host) {
        return Err(ApiError::bad_field(host_field, "must be a DNS name"));
    }
    let t = rtype.to_ascii_uppercase();
    if !DNS_TYPES.contains(&t.as_str()) {
        return Err(ApiError::bad_field("type", "unsupported record type"));
    }
    let max = if t == "TXT" || t == "SPF" {
        crate::MAX_DNS_TXT_BYTES
    } else {
        crate::MAX_DNS_STRING_BYTES
    };
    if content.len() > max {
        return Err(ApiError::bad_field(
            content_field,
            &format!(
                "at most {max} bytes for a {t} record, got {}",
                content.len()
            ),
        ));
    }
    let content_ok = match t.as_str() {
        "A" => util::is_ipv4(content),
        "AAAA" => util::is_ipv6(content),
        "CNAME" | "MX" | "NS" | "PTR" => util::is_hostname(content.trim_end_matches('.')),
        _ => !content.trim().is_empty(),
    };
    if !content_ok {
        return Err(ApiError::bad_field(
            content_field,
            &format!("is not valid content for a {t} record"),
        ));
    }
    let prio = match priority.map(str::trim) {
        None | Some("") => None,
        Some(p) => Some(
            p.parse::<i64>()
                .ok()
                .filter(|p| (0..=65_535).contains(p))
                .ok_or_else(|| {
                    ApiError::bad_field("priority", "must be an integer between 0 and 65535")
                })?,
        ),
    };
    let prio =
        if t == "MX" || t == "SRV" {
            Some(prio.ok_or_else(|| {
                ApiError::bad_field("priority", "is required for MX and SRV records")
            })?)
        } else {
            None
        };
    Ok((t, prio))
}

/// One of two spellings of a field: both present must agree.
pub(crate) fn either<'a>(
    form: &'a Form,
    doc: &str,
    sample: &str,
) -> Result<(&'a str, String), ApiError> {
    match (form.get(doc), form.get(sample)) {
        (Some(a), Some(b)) if a != b => Err(ApiError::bad_field(
            doc,
            &format!("{doc} and {sample} are both given and differ"),
        )),
        (Some(a), _) if !a.trim().is_empty() => Ok((a, doc.to_string())),
        (_, Some(b)) if !b.trim().is_empty() => Ok((b, sample.to_string())),
        _ => Err(ApiError::bad_field(
            doc,
            &format!("is required (or {sample})"),
        )),
    }
}

// -------------------------------------------------------- wire rendering

pub(crate) fn domain_json(cx: &Cx<'_>, st: &State, i: usize) -> Value {
    let mut r = rng(cx.seed(), kind::DOMAIN, i as u64);
    let start = EPOCH + r.random_range(0..8 * YEAR);
    let base_ttl = *pick(&mut r, &[300i64, 3600, 14_400, 86_400]);
    let ttl = st.domains.get(&i).and_then(|d| d.ttl).unwrap_or(base_ttl);
    let price_cents = r.random_range(50..2500i64);
    let var = cx.var();
    let rec = i as u64;
    // The facts are the index's (the term, editability); the spelling is the
    // chooser's.
    let term_years = 1 + (i % 4 / 2) as i64;
    let editable = domain_editable(i);
    let code = if i % 13 == 12 { 1001 } else { 1000 };
    let (status, readable) = if code == 1000 {
        ("ACTIVE", "The domain is active and resolving.")
    } else {
        ("PENDING_TRANSFER", "A transfer of the domain is pending.")
    };
    json!({
        "code": code,
        "domain": domain_name(i),
        "status": status,
        "ttl": var.int(&q::DOMAIN_TTL, rec, ttl),
        "readableStatus": readable,
        "startDate": fmt_mon_d_yyyy(start),
        "contractTerm": if var.is(&q::DOMAIN_TERM, rec, "string") {
            json!(contract_term_str(term_years))
        } else {
            json!(term_years)
        },
        "monthlyPrice": var.money(&q::DOMAIN_PRICE, rec, price_cents),
        "isEditable": if var.is(&q::DOMAIN_EDITABLE, rec, "string") {
            json!(editable.to_string())
        } else {
            json!(editable)
        },
    })
}

/// A DNS record as the wire shows it: its `id` spelt as `quirk` says (lists
/// and single views have their own quirk), or as an integer without one
/// (the snapshot).
pub(crate) fn record_json(r: &DnsRec, spelling: Option<(&Variants, &Quirk)>) -> Value {
    let id = match spelling {
        Some((v, quirk)) => v.int(quirk, r.id, r.id as i64),
        None => json!(r.id),
    };
    let mut v = json!({
        "id": id,
        "host": r.host,
        "type": r.rtype,
        "content": r.content,
    });
    if let Some(p) = r.priority {
        v["priority"] = json!(p);
    }
    v
}

// -------------------------------------------------------------- handlers

pub(crate) fn list_domains(cx: &Cx<'_>) -> Result<Response, ApiError> {
    let st = cx.state();
    Ok(util::ok_list(
        r#"{"domains":["#,
        (0..cx.ds().domains).map(|i| json!({"domain": domain_json(cx, &st, i)})),
        "]}",
    ))
}

pub(crate) fn get_domain(cx: &Cx<'_>, name: &str) -> Result<Response, ApiError> {
    let i = domain_index(cx, name)?;
    let st = cx.state();
    Ok(ok(&json!({"domain": domain_json(cx, &st, i)})))
}

pub(crate) fn put_domain(cx: &Cx<'_>, req: &Req, name: &str) -> Result<Response, ApiError> {
    let i = domain_index(cx, name)?;
    let form = req.form()?;
    let ttl_s = form.required("ttl")?;
    let ttl: i64 = ttl_s
        .trim()
        .parse()
        .map_err(|_| ApiError::bad_field("ttl", "must be an integer"))?;
    if !(60..=86_400).contains(&ttl) {
        return Err(ApiError::bad_field("ttl", "must be between 60 and 86400"));
    }
    check_editable(i, name)?;
    let mut st = cx.state();
    st.domains.set_ttl(i, Some(ttl));
    cx.log(&mut st, format!("domain {} ttl={ttl}", domain_name(i)));
    Ok(ok(&json!({"domain": domain_json(cx, &st, i)})))
}

pub(crate) fn list_records(cx: &Cx<'_>, name: &str) -> Result<Response, ApiError> {
    let i = domain_index(cx, name)?;
    let st = cx.state();
    let recs: Vec<Value> = records_of(&st, i)
        .iter()
        .map(|r| json!({"dnsRecord": record_json(r, Some((cx.var(), &q::DNS_ID_LIST)))}))
        .collect();
    Ok(ok(&json!({"dnsRecords": recs})))
}

pub(crate) fn get_record(cx: &Cx<'_>, name: &str, id: &str) -> Result<Response, ApiError> {
    let i = domain_index(cx, name)?;
    let st = cx.state();
    let recs = records_of(&st, i);
    let k = find_record(&recs, id)?;
    Ok(ok(
        &json!({"dnsRecord": record_json(&recs[k], Some((cx.var(), &q::DNS_ID_ONE)))}),
    ))
}

pub(crate) fn create_record(cx: &Cx<'_>, req: &Req, name: &str) -> Result<Response, ApiError> {
    let i = domain_index(cx, name)?;
    let form = req.form()?;
    let host = form.required("host")?;
    let rtype = form.required("type")?;
    let content = form.required("content")?;
    let (t, prio) = validate_record(
        host,
        "host",
        rtype,
        content,
        "content",
        form.get("priority"),
    )?;
    check_editable(i, name)?;
    let mut st = cx.state();
    let created = st
        .domains
        .values()
        .filter_map(|d| d.records.as_ref())
        .flatten()
        .filter(|r| r.id > DNS_NEW_BASE)
        .count();
    crate::state::check_room(created, "created DNS records")?;
    st.next_dns_record += 1;
    let rec = DnsRec {
        id: DNS_NEW_BASE + st.next_dns_record,
        host: host.to_string(),
        rtype: t,
        content: content.to_string(),
        priority: prio,
    };
    let v = record_json(&rec, Some((cx.var(), &q::DNS_ID_ONE)));
    let target = format!("dnsRecord {} of {}", rec.id, domain_name(i));
    st.domains.records_mut(i, || generated_records(i)).push(rec);
    cx.log(&mut st, target);
    Ok(ok(&json!({"dnsRecord": v})))
}

pub(crate) fn update_record(
    cx: &Cx<'_>,
    req: &Req,
    name: &str,
    id: &str,
) -> Result<Response, ApiError> {
    let i = domain_index(cx, name)?;
    let form = req.form()?;
    {
        let st = cx.state();
        find_record(&records_of(&st, i), id)?;
    }
    if let Some(fid) = form.get("id").filter(|s| !s.is_empty())
        && parse_u64(fid) != parse_u64(id)
    {
        return Err(ApiError::bad_field(
            "id",
            "does not match the record id of the path",
        ));
    }
    let (host, host_field) = either(&form, "name", "host")?;
    let (content, content_field) = either(&form, "data", "content")?;
    let rtype = form.required("type")?;
    let (t, prio) = validate_record(
        host,
        &host_field,
        rtype,
        content,
        &content_field,
        form.get("priority"),
    )?;
    check_editable(i, name)?;
    let mut st = cx.state();
    let k = find_record(&records_of(&st, i), id)?;
    let mut recs = st.domains.records_mut(i, || generated_records(i));
    let rec = DnsRec {
        id: recs.as_slice()[k].id,
        host: host.to_string(),
        rtype: t,
        content: content.to_string(),
        priority: prio,
    };
    let v = record_json(&rec, Some((cx.var(), &q::DNS_ID_ONE)));
    let target = format!("dnsRecord {} of {}", rec.id, domain_name(i));
    recs.replace(k, rec);
    cx.log(&mut st, target);
    Ok(ok(&json!({"dnsRecord": v})))
}

pub(crate) fn delete_record(cx: &Cx<'_>, name: &str, id: &str) -> Result<Response, ApiError> {
    let i = domain_index(cx, name)?;
    let mut st = cx.state();
    let k = find_record(&records_of(&st, i), id)?;
    check_editable(i, name)?;
    let rec = st.domains.records_mut(i, || generated_records(i)).remove(k);
    cx.log(
        &mut st,
        format!("dnsRecord {} of {}", rec.id, domain_name(i)),
    );
    Ok(empty(StatusCode::OK))
}
