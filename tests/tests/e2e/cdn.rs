//! The CDN interface: the customer and its sub-customers, the ACL, origins, purges.

use hostapi::cdn::{
    Acl, NewOrigin, OriginType, OriginUpdate, PurgeJob, PurgeStatus, SubCustomerUpdate,
};
use hostapi::types::{CustomerNumber, PurgeJobId, ZoneId};
use hostapi_sim::PURGE_SECS;

use crate::support::{Env, waits};

/// The customer record; the sub-customers, one by one; a new sub-customer and a change
/// to an existing one, each read back.
pub(crate) async fn cdn_customers(env: &Env) {
    let cdn = env.client.cdn();
    let own = env.sim.cdn_customer();
    let customer = cdn.customers().get().await.expect("customer");
    assert_eq!(
        customer.customer_number.as_ref().map(|c| c.as_str()),
        Some(own)
    );
    assert_eq!(customer.reseller, Some(true));
    let secret = customer.api_secret.as_ref().expect("the customer secret");
    assert_eq!(secret.expose(), env.sim.cdn_secret());
    let shown = format!("{customer:?}");
    assert!(
        !shown.contains(env.sim.cdn_secret()),
        "Debug shows it: {shown}"
    );

    let number = |n: u32| CustomerNumber::new(format!("{own}{n:02}")).expect("a number");
    let subs = cdn.sub_customers();
    // The dataset's three sub-customers, each filed under the reseller's number.
    let mut all = Vec::new();
    for n in 1..=3 {
        all.push(subs.get(&number(n)).await.expect("one sub-customer"));
    }
    let numbers: Vec<&str> = all.iter().map(|s| s.customer_number.as_str()).collect();
    let expected: Vec<String> = (1..=3).map(|n| number(n).as_str().to_owned()).collect();
    assert_eq!(numbers, expected);
    assert!(all.iter().all(|s| s.group == own), "{all:?}");
    let actives: Vec<Option<bool>> = all.iter().map(|s| s.active).collect();
    assert_eq!(actives, [Some(true), Some(true), Some(false)]);

    // A new sub-customer.
    let new = number(4);
    let create = SubCustomerUpdate::new()
        .active(true)
        .ftp_quota(2048)
        .company_name("E2E Media")
        .notes("made by the e2e test");
    let answered = subs
        .update(&new, &create)
        .await
        .expect("create sub-customer");
    let read = subs.get(&new).await.expect("read back");
    assert_eq!(read, answered);
    let sub = &read;
    assert_eq!(sub.customer_number, new);
    assert_eq!(sub.active, Some(true));
    assert_eq!(sub.ftp_quota, Some(2048));
    assert_eq!(sub.company_name.as_deref(), Some("E2E Media"));
    assert_eq!(sub.notes.as_deref(), Some("made by the e2e test"));
    assert!(sub.api_secret.is_some(), "the service issues a secret");

    // A change to an existing one keeps what it does not set.
    let change = SubCustomerUpdate::new().active(false).ftp_quota(512);
    subs.update(&number(2), &change)
        .await
        .expect("update sub-customer");
    let read = subs.get(&number(2)).await.expect("read back");
    assert_eq!((read.active, read.ftp_quota), (Some(false), Some(512)));
    assert_eq!(read.company_name, all[1].company_name);
    // The reseller now has four sub-customers, the first three as they were but for
    // the change.
    for n in [1, 3, 4] {
        let one = subs.get(&number(n)).await.expect("sub-customer");
        assert_eq!(one.customer_number, number(n));
        if n < 4 {
            assert_eq!(one, all[n as usize - 1]);
        }
    }
}

/// The ACL: read, replace (read back as written), delete (read back as allowing
/// nothing).
pub(crate) async fn cdn_acl(env: &Env) {
    let cdn = env.client.cdn();
    let acl = cdn.acl();
    let initial = acl.get().await.expect("acl");

    let mut wanted = Acl::default();
    wanted.content.post = true;
    wanted.content.get = true;
    wanted.stats.get = true;
    wanted.origins.get = true;
    wanted.origins.put = true;
    wanted.zones.delete = true;
    assert_ne!(wanted, initial, "the replacement changes something");
    let answered = acl.update(&wanted).await.expect("replace acl");
    assert_eq!(answered, wanted);
    assert_eq!(acl.get().await.expect("acl"), wanted);

    let answered = acl.delete().await.expect("delete acl");
    assert_eq!(answered, Acl::default());
    assert_eq!(acl.get().await.expect("acl"), Acl::default());
}

/// Origins: list and read (under `success` and `succes`); create a simple and an S3
/// origin and update them, each read back.
pub(crate) async fn cdn_origins(env: &Env) {
    let origins = env.client.cdn().origins();
    let list = origins.list().await.expect("origins");
    let ids: Vec<&str> = list.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids, ["101", "102", "103", "104"]);
    for listed in &list {
        let one = origins.get(&listed.id).await.expect("origin");
        assert_eq!(&one, listed);
    }

    let new = NewOrigin::new("e2e-assets", "https://assets.example.org")
        .origin_type(OriginType::Simple)
        .refresh_every_seconds(3600)
        .ignore_cache_control(true)
        .proxy_header_host("assets.example.org")
        .cache_key("$host$uri")
        .basic_auth("fetcher", "fetch-secret")
        .headers_origin("X-From: cdn");
    let created = origins.create(&new).await.expect("create origin");
    assert_eq!(created.label.as_deref(), Some("e2e-assets"));
    assert_eq!(created.url.as_deref(), Some("https://assets.example.org"));
    assert_eq!(created.origin_type, Some(OriginType::Simple));
    assert_eq!(created.refresh_every_seconds, Some(3600));
    assert_eq!(created.ignore_cache_control, Some(true));
    assert_eq!(
        created.proxy_header_host.as_deref(),
        Some("assets.example.org")
    );
    assert_eq!(created.cache_key.as_deref(), Some("$host$uri"));
    assert_eq!(created.basic_auth_user.as_deref(), Some("fetcher"));
    assert_eq!(
        created.basic_auth_password.as_ref().map(|p| p.expose()),
        Some("fetch-secret")
    );
    assert_eq!(
        created.headers_origin.as_ref().map(|h| h.expose()),
        Some("X-From: cdn")
    );
    assert!(!format!("{created:?}").contains("fetch-secret"));
    assert_eq!(origins.get(&created.id).await.expect("origin"), created);
    let listed = origins.list().await.expect("origins");
    assert_eq!(listed.len(), 5);
    assert!(listed.contains(&created), "{listed:?}");

    let update = OriginUpdate::new()
        .label("e2e-assets-2")
        .refresh_every_seconds(60)
        .ignore_cache_control(false);
    origins
        .update(&created.id, &update)
        .await
        .expect("update origin");
    let read = origins.get(&created.id).await.expect("origin");
    assert_eq!(read.label.as_deref(), Some("e2e-assets-2"));
    assert_eq!(read.refresh_every_seconds, Some(60));
    assert_eq!(read.ignore_cache_control, Some(false));
    assert_eq!(read.url, created.url, "what the update did not set is kept");
    assert_eq!(read.cache_key, created.cache_key);

    // An S3 origin, then every other field changed.
    let s3 = NewOrigin::new("e2e-bucket", "https://bucket.example.org")
        .origin_type(OriginType::S3)
        .s3_bucket_name("e2e-bucket")
        .basic_auth("AKIAE2E", "s3-key-secret");
    let bucket = origins.create(&s3).await.expect("create s3 origin");
    assert_eq!(bucket.origin_type, Some(OriginType::S3));
    assert_eq!(bucket.s3_bucket_name.as_deref(), Some("e2e-bucket"));
    assert_eq!(origins.get(&bucket.id).await.expect("origin"), bucket);
    let update = OriginUpdate::new()
        .url("https://bucket-2.example.org")
        .s3_bucket_name("e2e-bucket-2")
        .basic_auth("AKIAE2E2", "s3-key-secret-2")
        .proxy_header_host("bucket-2.example.org")
        .cache_key("$uri")
        .headers_origin("X-Bucket: 2");
    origins
        .update(&bucket.id, &update)
        .await
        .expect("update s3 origin");
    let read = origins.get(&bucket.id).await.expect("origin");
    assert_eq!(read.url.as_deref(), Some("https://bucket-2.example.org"));
    assert_eq!(read.s3_bucket_name.as_deref(), Some("e2e-bucket-2"));
    assert_eq!(read.basic_auth_user.as_deref(), Some("AKIAE2E2"));
    assert_eq!(
        read.basic_auth_password.as_ref().map(|p| p.expose()),
        Some("s3-key-secret-2")
    );
    assert_eq!(
        read.proxy_header_host.as_deref(),
        Some("bucket-2.example.org")
    );
    assert_eq!(read.cache_key.as_deref(), Some("$uri"));
    assert_eq!(
        read.headers_origin.as_ref().map(|h| h.expose()),
        Some("X-Bucket: 2")
    );
    assert_eq!(
        read.label, bucket.label,
        "what the update did not set is kept"
    );
    assert_eq!(origins.list().await.expect("origins").len(), 6);
}

/// Waits for a purge job until no file is queued; every file is then done.
async fn purged(env: &Env, job: &PurgeJob) -> PurgeJob {
    let done = env
        .client
        .cdn()
        .wait_purged(&job.zone, &job.id, &waits())
        .await
        .expect("purged");
    assert_eq!((&done.id, &done.zone), (&job.id, &job.zone));
    assert!(done.is_done(), "{done:?}");
    assert!(
        done.entries.iter().all(|e| e.status == PurgeStatus::Done),
        "{done:?}"
    );
    done
}

/// Purges of listed files and of a whole zone, followed until done; the finished job
/// of the dataset.
pub(crate) async fn cdn_purges(env: &Env) {
    let cdn = env.client.cdn();
    let zone = ZoneId::new("1001").expect("zone");
    let paths = ["/css/site.css", "/js/app.js"];

    let started = env.sim.sim_time();
    let job = cdn.purge(&zone, &paths).await.expect("purge");
    assert_eq!(
        (&job.zone, &job.urls[..]),
        (&zone, &paths.map(String::from)[..])
    );
    let status = cdn
        .purge_status(&zone, &job.id)
        .await
        .expect("purge status");
    assert_eq!(status.id, job.id);
    assert!(
        status
            .entries
            .iter()
            .all(|e| matches!(e.status, PurgeStatus::Queued | PurgeStatus::Done)),
        "{status:?}"
    );
    let urls: Vec<&str> = status.entries.iter().map(|e| e.url.as_str()).collect();
    assert_eq!(urls, paths);
    let done = purged(env, &job).await;
    assert!(env.sim.sim_time() - started >= PURGE_SECS);
    let urls: Vec<&str> = done.entries.iter().map(|e| e.url.as_str()).collect();
    assert_eq!(urls, paths);

    let everything_zone = ZoneId::new("1002").expect("zone");
    let job = cdn
        .purge_everything(&everything_zone)
        .await
        .expect("purge everything");
    assert_eq!(job.urls, ["*"]);
    let done = purged(env, &job).await;
    let urls: Vec<&str> = done.entries.iter().map(|e| e.url.as_str()).collect();
    assert_eq!(urls, ["*"]);

    let finished = cdn
        .purge_status(&zone, &PurgeJobId::new("5001").expect("job"))
        .await
        .expect("purge status");
    assert!(!finished.entries.is_empty());
    assert!(
        finished
            .entries
            .iter()
            .all(|e| e.status == PurgeStatus::Done),
        "{finished:?}"
    );
}
