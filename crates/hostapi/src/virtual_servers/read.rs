//! v1 virtual server answers → [`VirtualServer`], and the job handle of power calls.

use super::model::{AdministrativeInfo, Platform, VirtualServer, VirtualServerState};
use crate::ips::read::assignments;
use crate::model::values::mac;
use crate::model::{DataSize, DataUnit, Job, JobId, Sla};
use crate::read::text;
use crate::read::{Cursor, FieldError, Fields, Json};

/// `{virtualServers:[…]}`: the member the servers are under (the single view too).
pub(crate) const SERVERS: &str = "virtualServers";

/// A server (a list item, or the one item of the single view).
pub(crate) fn server(cursor: &mut Cursor, json: Json<'_>) -> Result<VirtualServer, FieldError> {
    cursor.object(json, |f| {
        Ok(VirtualServer {
            id: f.id("id")?,
            name: f.text("serverName"),
            reference: f.text("reference"),
            state: f.open_enum("state", VirtualServerState::from_wire),
            template: f.text("template"),
            platform: f.object("type", platform).map(Box::new),
            attached_iso: f.text("attachedISO"),
            mac_address: f.parsed("macAddress", mac),
            sla: Sla::named(f.text("SLA")).map(Box::new),
            data_traffic_pack: f.text("dataTrafficPack"),
            // Documented in GB.
            data_traffic_limit: f
                .decimal("dataTrafficLimit")
                .map(|gb| DataSize::new(gb, DataUnit::Gigabytes)),
            ips: assignments(f, "ipAddresses"),
            administrative: f.object("administrativeInfo", administrative).map(Box::new),
            extra: f.unread(),
        })
    })
}

/// `type` names its id `id` on some records and `Id` on others.
fn platform(f: &mut Fields<'_, '_>) -> Platform {
    f.alias("Id", "id");
    Platform {
        id: f.text("id"),
        name: f.text("PlatformName"),
        extra: f.unread(),
    }
}

fn administrative(f: &mut Fields<'_, '_>) -> AdministrativeInfo {
    AdministrativeInfo {
        customer_number: f.text("customerNumber"),
        created_at: f.parsed("createdAt", text::local_date_time),
        start_date: f.parsed("startDate", text::any_date),
        end_date: f.parsed("endDate", text::any_date),
        billing_frequency: f.text("billingFrequency"),
        contract_term: f.parsed("contractTerm", text::contract_term),
        order_number: f.text("orderNumber"),
        extra: f.unread(),
    }
}

/// `{asyncjob:{jobid}}` → the job.
pub(crate) fn job(cursor: &mut Cursor, body: Json<'_>) -> Result<Job, FieldError> {
    cursor.object(body, |wrapper| {
        let inner = wrapper
            .take("asyncjob")
            .ok_or_else(|| wrapper.cursor().error("asyncjob", "the job is absent"))?;
        let mut job = wrapper.cursor().within("asyncjob", |cursor| {
            cursor.object(inner, |f| {
                Ok(Job {
                    id: f.id::<JobId>("jobid")?,
                    name: None,
                    status: None,
                    created_at: None,
                    extra: f.unread(),
                })
            })
        })?;
        job.extra.extend(wrapper.unread());
        Ok(job)
    })
}
