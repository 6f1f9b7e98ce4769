//! The generated v1 client on the wire: what it sends, and what it decodes.

use hostapi_hooks::{CallHooks, Hooks};
use hostapi_raw_infra::Client;
use hostapi_raw_infra::shapes::VirtualServerIpAddresses;
use hostapi_raw_infra::types::UpdateDomainTtlForm;
use httpmock::Method::{GET, PUT};
use httpmock::MockServer;

/// Adds the API key the way the facade's hooks do, to show the seam works.
struct ApiKey;

impl CallHooks for ApiKey {
    fn prepare(&self, request: &mut reqwest::Request, _: &'static str) -> Result<(), String> {
        request.headers_mut().insert(
            "x-svc-auth",
            reqwest::header::HeaderValue::from_static("k-123"),
        );
        Ok(())
    }
}

fn client(server: &MockServer) -> Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    Client::new_with_client(
        &server.base_url(),
        reqwest::Client::new(),
        Hooks::new(ApiKey),
    )
}

#[tokio::test]
async fn domain_ttl_is_a_form_encoded_put() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(PUT)
                .path("/v1/domains/example.com")
                .header("x-svc-auth", "k-123")
                .header("content-type", "application/x-www-form-urlencoded")
                .header_missing("api-version")
                .body("ttl=3600");
            then.status(200).body(
                r#"{"domain":{"domain":"example.com","ttl":3600,"code":1000,"isEditable":"true"}}"#,
            );
        })
        .await;
    let answer = client(&server)
        .update_domain_ttl()
        .domainname("example.com")
        .body(UpdateDomainTtlForm { ttl: 3600 })
        .send()
        .await
        .expect("answer decodes")
        .into_inner();
    mock.assert_async().await;
    assert_eq!(answer.domain.ttl, Some(3600));
    assert_eq!(answer.domain.domain, "example.com");
}

#[tokio::test]
async fn ip_addresses_decode_in_both_shapes() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/virtualServers/1").header("x-svc-auth", "k-123");
            then.status(200).body(
                r#"{"virtualServers":[{"id":1,"ipAddresses":{"192.0.2.1":{"isNulled":false,"reverseDNS":"a.example"}}}]}"#,
            );
        })
        .await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/virtualServers/2");
            then.status(200).body(
                r#"{"virtualServers":[{"id":2,"ipAddresses":[{"ip":"192.0.2.2","isNulled":true,"reverseDNS":""}]}]}"#,
            );
        })
        .await;
    let client = client(&server);

    let keyed = client
        .get_virtual_server()
        .id(1)
        .send()
        .await
        .unwrap()
        .into_inner();
    match &keyed.virtual_servers[0].ip_addresses {
        Some(VirtualServerIpAddresses::Map(map)) => {
            assert_eq!(
                map.0
                    .get("192.0.2.1")
                    .and_then(|s| s.reverse_dns.as_deref()),
                Some("a.example")
            );
        }
        other => panic!("expected the keyed shape, got {other:?}"),
    }

    let listed = client
        .get_virtual_server()
        .id(2)
        .send()
        .await
        .unwrap()
        .into_inner();
    match &listed.virtual_servers[0].ip_addresses {
        Some(VirtualServerIpAddresses::List(list)) => {
            assert_eq!(list.0[0].ip.as_deref(), Some("192.0.2.2"));
            assert_eq!(list.0[0].is_nulled, Some(true));
        }
        other => panic!("expected the array shape, got {other:?}"),
    }
}
