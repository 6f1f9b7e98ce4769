//! # hostapi-sim: a stateful fake of the hosting provider's three interfaces
//!
//! A real HTTP/1.1 server (axum on tokio, bound to 127.0.0.1 unless told
//! otherwise, plain http or https) answering every
//! operation of the three API documents — 57 of infrastructure v1 (under
//! `/v1`), 11 of cloud v2 (under `/cloud/v2`) and 12 of the CDN (under
//! `/cdn`) — with their documented wire shapes and quirks, from a
//! deterministic dataset generated from a seed. It is a second, independent
//! reading of the documents: it shares no code with the SDK.
//!
//! ```no_run
//! # async fn demo() -> Result<(), hostapi_sim::SimError> {
//! let sim = hostapi_sim::Sim::start(hostapi_sim::SimConfig {
//!     seed: 7,
//!     time_scale: 1000.0,
//!     ..Default::default()
//! })
//! .await?;
//! println!("{} {}", sim.base_url(), sim.api_key());
//! sim.shutdown().await;
//! # Ok(()) }
//! ```
//!
//! ## Authentication
//! * v1 and cloud: header `X-Svc-Auth: <api_key>`; missing → 401, wrong →
//!   403, with the interface's JSON error body (the documents name no
//!   statuses).
//! * CDN: every path ends with `/{timestamp}/{signature}`, signature =
//!   lowercase hex SHA-1(secret ‖ timestamp ‖ resource path), the resource
//!   path being relative to [`Sim::cdn_base_url`] (so without `/cdn`) and
//!   taken as sent (still percent-encoded). Missing, malformed or wrong
//!   signature → 403 (the signature is checked over the timestamp text
//!   exactly as sent: `+ts` or leading zeros do not match a signature of the
//!   plain number); a timestamp more than ±300 s
//!   ([`SimConfig::cdn_clock_skew_secs`], `--cdn-clock-skew`) from the CDN
//!   clock → 403. The CDN clock is the real wall clock, or simulated time
//!   with [`SimConfig::cdn_clock_sim`] (`--cdn-clock sim`) for clients with
//!   an injected fixed clock; a customer number in the path other than the configured one →
//!   **403** (the signature's secret belongs to one customer). See
//!   [`sign_cdn_path`].
//!
//! ## Error bodies
//! `{"errorCode", "errorMessage", "userMessage", "correlationId",
//! "errorDetails"}`. `errorCode` is a **string** on v1 (domains, virtual
//! servers, racks, IPs, catalogues, private networks) and the CDN, an
//! **integer** on the v1 bare metal endpoints and on cloud v2.
//! `errorDetails` is an object keyed by field name (`{"ttl": ["ttl: must be
//! …"]}`, or `{}`) on v1 and CDN, an array of `{field, message}` (or `[]`)
//! on cloud v2, which also carries `reference` (the operation name).
//! Every v1 request is checked against the documented parameters of its
//! operation before anything changes (unknown form fields or query
//! parameters, missing required ones, values of the wrong type or outside
//! the allowed ones, at least one of `reverseLookup`/`nullRouted`), the way
//! stripe-mock checks requests; then the handlers check the rest (ranges,
//! the `hdd…` partition form, DNS contents).
//! Malformed values answer 400 naming the field, unknown ids (and paths no
//! operation matches, whatever the method) 404, a path some operation has
//! with another method 405 (with `Allow`), a write to a non-editable
//! domain 403, a write
//! that conflicts with work in progress 409 (e.g. an install while an
//! install runs), a non-form body on a form operation 415.
//!
//! ## Pagination
//! Cloud lists (virtual servers, credentials, private clouds) and the v1
//! lists that carry `_metadata` (DHCP leases, private networks) honour
//! `limit` and `offset` query parameters. The default limit is
//! [`DEFAULT_PAGE_LIMIT`] (10, as in the samples); larger requests are capped
//! at [`MAX_PAGE_LIMIT`] (500) and `_metadata.limit` reports the limit
//! applied. A non-integer or negative value, or a limit of 0, is 400. Other
//! v1 lists answer every record (large ones are serialised record by record).
//! Each of these lists can hold more than a page at every seed: the 40 cloud
//! servers by default; bare metal server 20008, which hosts virtual machines,
//! starts with 25 DHCP leases; `size` 15000 gives 15 private clouds; private
//! networks and credentials are paged by asking for smaller pages (or, for
//! networks, by creating more).
//!
//! ## Dataset
//! `size` N (0 = [`DEFAULT_SIZE`], 40) gives N cloud servers,
//! max(N/10, 20) v1 virtual servers, max(N/100, 20) bare metals and domains,
//! max(N/1000, 10) private racks and private clouds. Records are generated
//! on demand from (seed, index); only changed state is stored, so start-up
//! is constant-time whatever the size. Ids and names depend only on the
//! index (so tests can rely on them); values (prices, dates, references,
//! MACs, passwords, traffic) depend on the seed.
//!
//! | kind | ids |
//! |---|---|
//! | v1 virtual servers | `100001 + i` |
//! | bare metals | `20001 + i` (serverPackId is the same number) |
//! | private racks | `7001 + i` |
//! | domains | `<word>-<i+1>.<tld>`, first `acme-1.com` (words and TLDs cycle) |
//! | DNS records | `1000000 + 1000·d + j` (new ones from 9000001) |
//! | private networks | 501 (two members), 502 (empty), new from 503 |
//! | cloud servers | UUID-shaped, index in the last group (read the list) |
//! | private clouds | `300001 + i`, as strings |
//! | operating systems | 9, 135, 178, 205, 180, 201, 230, 190, 210, 211, 176, 231 |
//! | rescue images | 121–124 |
//! | control panels | 1–4 (per OS; none for FreeBSD) |
//! | CDN zones | 1001–1005 |
//! | CDN sub-customers | `<customer>01`, `<customer>02`, `<customer>03` (the last inactive) |
//! | CDN origins | 101–104, new from 105 |
//! | CDN purge jobs | 5001 (done), new from 5002 |
//!
//! ### How variants are chosen
//! Where the documents allow several spellings or shapes of a field, each
//! record is sent in one of them, chosen by one chooser (`src/variants.rs`)
//! from a hash of (seed, *quirk key*, record identity): independent per
//! field and per seed, the same on every read of a record whatever the
//! order of requests, and never by record position. Every alternative occurs
//! at every seed (a hashed window of records takes each in turn; the rest
//! are drawn by weight). [`quirks`] lists the keys and their alternatives:
//! * v1 virtual servers: `v1.vs.ipAddresses.shape` (array / object keyed by
//!   IP), `v1.vs.ipAddresses.set` (IPv4, IPv4 + an IPv6 address, none: `[]`
//!   or `{}`), `v1.vs.type` (`Id` / `id` / absent), `v1.vs.type.id`,
//!   `v1.vs.endDate` (null / "" / date / absent), `v1.vs.reference` (text /
//!   null / ""), `v1.vs.macAddress.case`, `v1.vs.dataTrafficLimit`.
//! * domains: `v1.domain.contractTerm` ("2 years" / 2),
//!   `v1.domain.monthlyPrice` ("12.50" / 12.5), `v1.domain.isEditable`
//!   ("true" / true), `v1.domain.ttl`; DNS `v1.dns.id.list`,
//!   `v1.dns.id.single`.
//! * bare metals: `v1.bm.list.bareMetalId`, `v1.bm.bareMetalId`,
//!   `v1.bm.serverHostingPack.bareMetalId`, `v1.bm.reference`,
//!   `v1.bm.serverHostingPack.endDate`, `v1.bm.serverHostingPack.serverPrice`
//!   (129.0 / "129.00"), `v1.bm.network.excessIpsPrice`,
//!   `v1.bm.network.pricePerMonth`, `v1.bm.network.dataPackExcess.value`,
//!   `v1.bm.network.ipCounts`, `v1.bm.server.cpuCounts`,
//!   `v1.bm.serviceLevelAgreement.pricePerMonth`, `v1.bm.macAddresses.case`
//!   (per MAC), `v1.bm.installationStatus.serverPackId`,
//!   `v1.bm.installationStatus.nameKey` (`serverName` / `serverPackName`),
//!   `v1.bm.installationStatus.code` (a server may start with code 1003
//!   "Installation failed" until its next install or rescue),
//!   `v1.bm.rootPassword.key` (`rootPassword` / `rootpassword`),
//!   `v1.bm.leases.wrapping` (`[{_metadata, leases}]` / the object),
//!   `v1.bm.lease.wrapping` (`[lease]` / the lease); IPs
//!   `v1.ip.ipDetails.maskKey` (`mask` / `netmask`),
//!   `v1.ip.billingInformation.endDate` (null / "").
//! * racks: `v1.rack.list.privateRackId`, `v1.rack.privateRackId`,
//!   `v1.rack.serverHostingPack.privateRackId`,
//!   `v1.rack.serverHostingPack.endDate`, `v1.rack.reference`,
//!   `v1.rack.ip.privateRackId`.
//! * cloud: `cloud.vs.contract.pricePerFrequency`, `cloud.vs.networkTraffic`
//!   (present / absent), `cloud.vs.networkTraffic.datatrafficLimit`,
//!   `cloud.vs.ips` (three / none), `cloud.vs.reference`,
//!   `cloud.vs.hardware.memory.unit` (MB / GB, same amount),
//!   `cloud.privateCloud.contract.pricePerFrequency`.
//! * CDN: `cdn.origin.payloadKey` (origin GET under `succes` / `success`),
//!   `cdn.purge.entryPace` (an entry is done after half or all of
//!   [`PURGE_SECS`], so a job's entries are mixed in between).
//!
//! Numbers "as a string" keep their value ("129.00" is 129.0). Everything
//! else below depends on the index i of the kind (so tests can rely on it).
//!
//! Facts by index:
//! * v1 virtual server: 1 + i%2 IPv4 addresses (when its set has any),
//!   `attachedISO` when i%5==4, Stopped when i%3==2; single view is a
//!   one-element array.
//! * domains: `contractTerm` 1 year (i%4 < 2) or 2; editable when i%4 < 2
//!   (writes to a non-editable domain → 403); `code` 1001 when i%13==12;
//!   `startDate` `Mon d, yyyy`.
//! * DNS records: domain i has 5 + i%4 records (A, AAAA, CNAME `www.`, MX,
//!   TXT, then SRV, CAA, NS); `id` a string in lists, an integer in the
//!   single view (GET, POST, PUT answers); `priority` only on MX and SRV;
//!   types outside the documented list: TXT on every domain, `CAA` when
//!   i%4 ≥ 2, `NS` when i%4 == 3. Update accepts the documented `name`/`data`
//!   and the sample's `host`/`content` (both present and different → 400
//!   naming `name` or `data`); an `id` field, when sent, must equal the
//!   path's.
//! * bare metal: `kvm`/`hardwareRaid` "Yes"/"No"; `hardDisks` comma list
//!   beside `hardDiskList`; usage figures strings with units, `dataTraffic`
//!   in the combined view and `datatraffic` in its own; dates `DD-MM-YYYY`.
//! * IPs: `billingInformation.endDate` is never a date.
//! * leases: bare metals with i%4==2 start with one lease (their first
//!   MAC), i%4==0 with two (one per MAC), odd i with none; option
//!   `policyName` null on some. `POST` (bootFileName, bootServerHostName and
//!   domainNameServerIp, all required, the last two IPv4) sets the lease of
//!   the first MAC. MACs compare case-insensitively.
//! * switch port: closed initially when i%11==10; power status `off` when
//!   i%17==16 (nothing changes it).
//! * bare metal i has 1 + i%4 IPs (`85.17.x.y`); disks: 2 (i%4==0), 4
//!   (1), 2 (2), 1 (3), named `/dev/sda`…; the first IP's price is 0.00.
//! * install form: `osId` (an operating system, not a rescue image),
//!   `hdd[disk]`, `hdd[bootable]`, `hdd[params][N][type|size|mountpoint]`,
//!   `raidLevel`, `numberDisks`; refused with 400 naming the key: unknown
//!   `hdd…` keys, partition indexes with gaps, a filesystem type the OS does
//!   not offer, size not a positive MB integer or `*`, more than one `*`, no
//!   `/` partition, a non-swap partition without a `/…` mountpoint, a swap
//!   with one, a duplicated mountpoint, a bootable index out of range or on
//!   swap, a disk the server lacks, RAID level outside {0,1,5,6,10}, fewer
//!   disks than the level needs (2, 2, 3, 4, 4 and even for 10), more disks
//!   than the server has, one of raidLevel/numberDisks without the other.
//!   Install or rescue while one runs → 409.
//! * private networks: `createdAt`/`updatedAt` `+hhmm`; detail is an array;
//!   `POST` (optional form field `name`) answers **200** `{id, message}`,
//!   `DELETE` `{message}` (with or without members); adding a member twice
//!   (or while it is being removed) → 409; removing a non-member → 404.
//! * cloud: `iso` an object when i%3==1, else null; state `UNKNOWN` when
//!   i%23==22 and `MAINTENANCE` (undocumented) when i%29==28; firewall
//!   `UNKNOWN` when i%31==30; `contract.endsAt` null when i%5==4; metrics
//!   timestamps RFC 3339.
//! * CDN: integer booleans (`active`, `reseller`, `ignore_cache_control`),
//!   `created_at` Unix seconds; purge body JSON `{"urls":[…]}` (1–500
//!   entries, `*` only first, then purging everything); origins list and
//!   origin create answer under `succes`;
//!   origin update answers `{"success":""}`; sub-customers as
//!   `{<reseller number>:{"0":…,"1":…}}` (GET with the reseller's own number
//!   as sub-customer number lists all of them, another number that one);
//!   ACL as `{<customer_number>: ACL}` (booleans), written as the form field
//!   `acl` holding JSON (unknown sections or permissions → 400; missing ones
//!   become false); ACL delete sets every permission false.
//!
//! ## State and simulated time
//! Writes change later reads. Transitions are evaluated lazily from
//! timestamps in simulated time (`time_scale` simulated seconds per real
//! second): cloud power on STARTING [`CLOUD_POWER_SECS`] s → RUNNING;
//! power off STOPPING [`CLOUD_POWER_SECS`] s → STOPPED; reboot STOPPING then
//! STARTING ([`CLOUD_POWER_SECS`] s each) → RUNNING; reinstall STOPPING
//! [`CLOUD_POWER_SECS`] s, STARTING [`CLOUD_REINSTALL_SECS`] s → RUNNING (and
//! a new OS password). v1 virtual server power on and off keep the state
//! [`V1_POWER_SECS`] s, then Running / Stopped; reboot is Stopped for
//! [`V1_POWER_SECS`] s, reinstall for [`V1_REINSTALL_SECS`] s, then Running.
//! A bare metal power cycle answers power status `off` for
//! [`POWER_CYCLE_SECS`] s, then `on`; it also ends rescue mode.
//! Bare metal install: installationStatus "Installing" for
//! [`INSTALL_SECS`] s; rescue: "Rescue mode booting" for [`RESCUE_SECS`] s
//! (then `rescueModePassword` is set); then "Normal". Private network
//! member CONFIGURING → CONFIGURED and REMOVING → gone after
//! [`MEMBER_TRANSITION_SECS`] s. Purge entries "Queued" → "Done" after half
//! or all of [`PURGE_SECS`] s (each entry its own pace). A booted rescue
//! mode lasts until the next power cycle or install (the snapshot's
//! `rescueMode`); the description is then `Normal`, which the documents say
//! means no installation runs. Switch port changes are immediate.
//!
//! ## Using it from tests
//! [`Sim::start`] binds a free port of 127.0.0.1 (or [`SimConfig::port`])
//! on the caller's runtime; [`Sim::start_blocking`] runs the server on a
//! thread and runtime of its own, for blocking tests (or a blocking client
//! inside a current-thread runtime), and stops it when dropped;
//! [`Sim::base_url`], [`Sim::cdn_base_url`], [`Sim::api_key`],
//! [`Sim::cdn_secret`] and [`Sim::cdn_customer`] configure a client. The
//! control API is also on [`Sim`]: [`Sim::reset`], [`Sim::advance_clock`],
//! [`Sim::add_faults`] / [`Sim::clear_faults`], [`Sim::requests`] /
//! [`Sim::clear_requests`], [`Sim::export_state`] / [`Sim::import_state`].
//! A test to copy is `crates/hostapi/tests/against_the_simulator.rs`.
//! `docs/simulator.md` is the guide for users who do not read Rust:
//! every control endpoint with examples, and running it in CI.
//!
//! ## As a service
//! [`SimConfig::host`] (`--host`) binds another address (`0.0.0.0` in a
//! container); the control API then requires a token
//! ([`SimConfig::control_token`], generated when not given). With
//! [`SimConfig::tls`] (`--tls`) it serves https: a certificate authority
//! made at start signs the server's certificate, and its certificate is
//! written for clients to trust ([`Sim::ca_file`]).
//!
//! ## Operation names
//! Fault rules and the journal name an operation by its operationId as the
//! specs (and the SDK's errors) do, `listDomains`, or by `METHOD /path`
//! template, `GET /v1/domains`; see [`OPERATIONS`]. Six operationIds are
//! the same on infra and cloud (`listVirtualServers`, …): alone they mean
//! both, `infra.` or `cloud.` before them one.
//!
//! ## Control API
//! Under `/_sim/` on the same port, JSON, no API key; loopback clients
//! only (others → 403), or with a control token whoever sends
//! `Authorization: Bearer TOKEN` (none → 401, another → 403); a wrong
//! method → 405 with `Allow`, a bad body → 400 `{"error": "<field>: …"}`.
//! * `GET /_sim/health`: `{status, seed, size, simTime, stateFile}`.
//! * `POST /_sim/reset`, optional body `{"seed": N, "size": N}`: back to the
//!   generated dataset; clears the write log, fault rules and journal; keeps
//!   the credentials and the clock.
//! * `GET /_sim/state` exports `{format, version, seed, size, simTime,
//!   state}`; `PUT /_sim/state` imports such a document (all or nothing,
//!   checked first: see "Checked imports"; 503 if it cannot be saved).
//! * `GET /_sim/clock` (`{simTime, wallTime, timeScale}`); `POST
//!   /_sim/clock/advance` `{"seconds": N}` (0 to [`MAX_ADVANCE_SECS`]):
//!   transitions are timestamps in simulated time, so pending ones complete
//!   in order.
//! * `GET /_sim/faults` (`{rules, operations}`: every [`Operation`] with
//!   both its names),
//!   `POST /_sim/faults` (a [`FaultRule`] or an array; 201 with ids),
//!   `DELETE /_sim/faults` (all) or `/_sim/faults/{id}`. Rules are checked
//!   before `X-Sim-Fault`-less requests run: the first rule of the request's
//!   operation (or `"*"`) that fires decides, latency rules add up. Each rule
//!   counts calls per operation, so `times` and `probability` (hashed from
//!   seed, rule, operation and call number) do not depend on how calls of
//!   other operations interleave. An `X-Sim-Fault` header overrides rules.
//! * `GET /_sim/requests[?operation=NAME][&format=ndjson]`: the journal
//!   ([`JournalEntry`]: time, method, path, query, operationId, interface,
//!   route, status, fault, request and answer bodies), newest
//!   [`JOURNAL_CAP`] within [`JOURNAL_MAX_BYTES`]; bodies cut at
//!   [`JOURNAL_BODY_CAP`]; CDN signatures, secret-looking fields and the
//!   credentials are [`REDACTED`]; headers are not recorded. A NAME of no
//!   operation is 400. `format=ndjson` exports one entry per line, the
//!   script [`SimConfig::replay`] (`--replay FILE`) serves back. `DELETE`
//!   clears it.
//! * `GET /_sim/replay`: with a replay script, how far it went
//!   ([`ReplayProgress`]).
//!
//! ## Persistence
//! With [`SimConfig::state_file`] (`--state FILE`) the state lives in two
//! files, both mode 0600:
//! * `FILE`, a snapshot: the export document (see the control API) plus
//!   `savedAt`, the wall time it was written, and `logSeq`, the newest
//!   change log record it holds;
//! * `FILE.log`, the change log: one JSON line per write since the
//!   snapshot, with the keys the write changed (a DNS zone by the records
//!   that changed), the simulated time and the wall time.
//!
//! A write changes the state in memory, then its log line is appended and
//! flushed to disk (`fdatasync`) before it is answered; writes arriving
//! together share one flush, so the cost of a write does not grow with the
//! state. A read is answered once every write it could see is on disk. So
//! a `kill -9` at any point loses nothing that was answered: at the next
//! start the snapshot is loaded and the log replayed (a last line cut short
//! by the kill was never answered and is skipped). The log is folded into
//! a new snapshot (written to `FILE.tmp.<pid>`, flushed, renamed over
//! `FILE`) at start, at shutdown and when the [`Sim`] is dropped, after a
//! reset or an import, and whenever it grows past 16 MiB and twice the
//! snapshot. Temporary files left by a process that died are removed at
//! start. A `FILE.log` without its `FILE` (the state file was deleted to
//! start afresh) is ignored.
//!
//! When the disk refuses a log line or a snapshot (full, read-only, a file
//! size limit), the write is **not applied**: every write still waiting
//! for the disk is undone, newest first, and answered **503** with the
//! interface's error body saying the state file could not be saved. Reads
//! keep working, every request is journaled, and the next write tries
//! again (with a full snapshot).
//!
//! Loading checks the document as an import does (below) and the state
//! after the log is replayed. Version 1 documents (written by earlier
//! simulators) load; [`STATE_VERSION`] 2 adds `savedAt` and `logSeq`.
//!
//! ## Time between runs
//! Simulated time runs at `time_scale` simulated seconds per real second
//! while the simulator runs, and goes on while it is stopped: at start,
//! simulated time is the saved simulated time plus the wall time elapsed
//! since it was saved (the newest log line or the snapshot's `savedAt`)
//! times the (new) time scale. So a transition that was pending (an
//! install, a power change, a purge) completes as it would have, and one a
//! client waited for stays done in the next run. An imported document, or
//! an export given as `--state FILE`, has no `savedAt`: it starts at its
//! `simTime`, as a fixture should.
//!
//! ## Checked imports
//! `PUT /_sim/state`, [`Sim::import_state`] and a state file at start are
//! checked before anything changes, in three steps, the error naming the
//! JSON path of what is wrong (400 over HTTP, [`SimError::Config`] from
//! the API, [`SimError::State`] at start):
//! 1. `format` must be [`STATE_FORMAT`] and `version` from 1 to
//!    [`STATE_VERSION`]; a newer version says so (rather than naming a
//!    field this simulator does not know);
//! 2. every field is typed and unknown fields are refused
//!    (`state.bare_metals.3.bogus: unknown field`);
//! 3. invariants: `simTime` a Unix time from 1970 to the year 9999 (record
//!    times the same, or "long ago"); every index within the dataset
//!    (`state.cloud.999999: no cloud server`), private network members
//!    existing bare metals, once each; the next id handed out above every
//!    id in use (`next_origin`, `next_purge`, `next_private_network`,
//!    `next_dns_record`), record ids unique; DNS records, purge entries,
//!    references and names within the caps below; the ACL every section
//!    and permission as a boolean (`state.acl: must be an object`); counts
//!    within [`MAX_CREATED`], [`PURGE_HISTORY_CAP`], [`WRITE_LOG_CAP`];
//!    the whole state within [`MAX_STATE_BYTES`].
//!
//! ## Limits
//! Memory is bounded in bytes as well as counts, each past a cap answered
//! in the interface's error shape:
//! * a request body of the three interfaces: [`MAX_BODY_BYTES`] (1 MiB) →
//!   413; a control API body: [`MAX_IMPORT_BYTES`] → 413;
//! * DNS record content: [`MAX_DNS_TXT_BYTES`] (4096) for TXT and SPF,
//!   [`MAX_DNS_STRING_BYTES`] (255) for the other types → 400 naming
//!   `content`;
//! * a purge: 1 to 500 entries, each at most [`MAX_PURGE_URL_BYTES`]
//!   (2048), all together at most [`MAX_PURGE_BYTES`] (16 KiB) → 400
//!   naming `urls`;
//! * the whole state: [`MAX_STATE_BYTES`] (32 MiB, measured as the size of
//!   its export) → a write that would grow it past the cap answers 409 and
//!   changes nothing (deletes still work);
//! * the journal keeps [`JOURNAL_CAP`] entries, the write log
//!   [`WRITE_LOG_CAP`], purge jobs [`PURGE_HISTORY_CAP`] (oldest dropped
//!   first); a user can create at most [`MAX_CREATED`] DNS records, private
//!   networks, CDN origins or sub-customers (more → 409); `size` is at most
//!   [`MAX_SIZE`], where every id and address stays valid and unique.
//!
//! `GET /_sim/state` is serialised straight from the state (no copy as a
//! JSON tree), and since the import limit is the state cap plus 1 MiB, any
//! export imports again.
//!
//! ## Faults
//! See [`FaultKind`] and [`FaultConfig`]; per request through the header
//! `X-Sim-Fault` (comma-separated: `503`, `500`, `502`, `429` or `429=<s>`,
//! `drop-before`, `drop-after`, `truncate`, `malformed`, `latency=<ms>`).
//! 429, 500 and 503 answer the interface's JSON error body (429 with
//! `Retry-After`), 502 an HTML page as a proxy would. Status faults and
//! `drop-before` are decided **before** handling and never change state; `drop-after`, `truncate` and `malformed` run the operation
//! (state changes are applied) and then spoil the answer. Random faults are
//! drawn from a PRNG seeded with the simulator's seed, one draw per request
//! in arrival order, so a sequential run replays exactly.

mod cdn;
mod change;
mod changelog;
mod chart;
mod cloud;
mod control;
mod error;
mod faults;
mod journal;
mod operations;
mod params;
mod persist;
mod replay;
mod router;
mod rules;
mod server;
mod state;
mod tls;
mod tracked;
mod tracked_domains;
mod util;
mod v1;
mod validate;
mod variants;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;

use serde::Serialize;

pub use control::MAX_ADVANCE_SECS;
pub use faults::{FaultConfig, FaultKind, FaultWeights, MAX_LATENCY_MS};
pub use journal::{JournalEntry, REDACTED, RecordedBody};
pub use operations::{OPERATIONS, Operation};
pub use persist::{STATE_FORMAT, STATE_VERSION};
pub use replay::{ReplayProgress, read_script};
pub use rules::{FaultRule, MAX_FAULT_RULES};

/// Default `size`: 40 cloud servers and at least 20 of the other kinds.
pub const DEFAULT_SIZE: usize = 40;
/// Default `limit` of paginated lists.
pub const DEFAULT_PAGE_LIMIT: usize = 10;
/// Largest `limit` honoured; larger requests are capped to it.
pub const MAX_PAGE_LIMIT: usize = 500;
/// Simulated seconds of each cloud STARTING / STOPPING phase.
pub const CLOUD_POWER_SECS: f64 = 5.0;
/// Simulated seconds of the STARTING phase of a cloud reinstall.
pub const CLOUD_REINSTALL_SECS: f64 = 30.0;
/// Simulated seconds of a v1 virtual server power on, power off or reboot
/// (the state changes when it ends).
pub const V1_POWER_SECS: f64 = 10.0;
/// Simulated seconds a v1 virtual server reinstall keeps it Stopped.
pub const V1_REINSTALL_SECS: f64 = 60.0;
/// Simulated seconds a bare metal power cycle keeps the power off.
pub const POWER_CYCLE_SECS: f64 = 30.0;
/// Simulated seconds of a bare metal installation.
pub const INSTALL_SECS: f64 = 300.0;
/// Simulated seconds of a bare metal rescue-mode boot.
pub const RESCUE_SECS: f64 = 120.0;
/// Simulated seconds of a private network member's CONFIGURING and REMOVING.
pub const MEMBER_TRANSITION_SECS: f64 = 60.0;
/// Simulated seconds until a purge entry moves from Queued to Done.
pub const PURGE_SECS: f64 = 10.0;
/// Default largest accepted distance between a CDN timestamp and the CDN
/// clock ([`SimConfig::cdn_clock_skew_secs`]).
pub const CDN_MAX_SKEW_SECS: i64 = 300;
/// Entries kept in the request journal (the oldest are dropped first).
pub const JOURNAL_CAP: usize = 1_000;
/// Bytes of a request or answer body the journal keeps (the rest is cut,
/// and the record says `truncated`).
pub const JOURNAL_BODY_CAP: usize = 64 * 1024;
/// Rough memory the journal may take, bodies included (the oldest entries
/// are dropped first).
pub const JOURNAL_MAX_BYTES: usize = 16 * 1024 * 1024;
/// Entries kept in the write log (the oldest are dropped first).
pub const WRITE_LOG_CAP: usize = 10_000;
/// Records of one kind a user can create (DNS records, private networks,
/// CDN origins, CDN sub-customers): a create past it answers 409.
pub const MAX_CREATED: usize = 10_000;
/// Purge jobs kept (the oldest are dropped first).
pub const PURGE_HISTORY_CAP: usize = 1_000;
/// How long open requests may take to finish once the simulator is told to
/// stop (SIGTERM, [`Sim::shutdown`], dropping a [`Sim`]); then their
/// connections are closed.
pub const SHUTDOWN_GRACE_MS: u64 = 500;
/// Largest request body of the three interfaces (413 past it).
pub const MAX_BODY_BYTES: usize = 1 << 20;
/// Largest state the simulator holds, in bytes of its exported document:
/// a write that would grow it past this answers 409.
pub const MAX_STATE_BYTES: usize = 32 << 20;
/// Largest `PUT /_sim/state` body: any export (at most
/// [`MAX_STATE_BYTES`] of state, plus its envelope) imports again.
pub const MAX_IMPORT_BYTES: usize = MAX_STATE_BYTES + (1 << 20);
/// Largest DNS record content: 4096 bytes for TXT and SPF, 255 for
/// other types (one DNS character-string).
pub const MAX_DNS_TXT_BYTES: usize = 4096;
/// Largest content of a DNS record other than TXT and SPF.
pub const MAX_DNS_STRING_BYTES: usize = 255;
/// Largest purge entry (a path or URL), in bytes.
pub const MAX_PURGE_URL_BYTES: usize = 2048;
/// Largest total of one purge request's entries, in bytes.
pub const MAX_PURGE_BYTES: usize = 16 << 10;
/// Largest accepted `size`: ids and addresses stay valid and unique up to
/// it (see [`check_size`]).
pub const MAX_SIZE: usize = 500_000;

/// Check a `size` knob: at most [`MAX_SIZE`].
pub fn check_size(size: usize) -> Result<(), String> {
    if size > MAX_SIZE {
        return Err(format!("size: at most {MAX_SIZE}, got {size}"));
    }
    Ok(())
}

/// Configuration of a simulator. `Default` gives 127.0.0.1 and any free
/// port, plain http, seed 0, the default size, credentials generated from
/// the seed, real time and no faults.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// Address to bind (default 127.0.0.1). Any other address (`0.0.0.0`
    /// in a container) makes the control API require a token
    /// ([`SimConfig::control_token`], generated when not given).
    pub host: std::net::IpAddr,
    /// Port to bind; 0 picks any free port.
    pub port: u16,
    /// The token the control API requires (`Authorization: Bearer
    /// TOKEN`). Without one, the control API answers loopback clients
    /// only, unless [`SimConfig::host`] is not a loopback address: then a
    /// token is generated ([`Sim::control_token`]).
    pub control_token: Option<String>,
    /// Serve https with a certificate made at start, instead of plain http.
    pub tls: Option<TlsConfig>,
    /// Serve this script (a recorded journal, see [`read_script`]) instead
    /// of the simulated interfaces.
    pub replay: Option<Vec<JournalEntry>>,
    /// Seed of the dataset, of the documented spellings each record is sent
    /// in, and of random faults.
    pub seed: u64,
    /// Size knob (0 = [`DEFAULT_SIZE`]); see the crate docs.
    pub size: usize,
    /// The v1/cloud API key; generated from the seed when absent.
    pub api_key: Option<String>,
    /// The CDN secret; generated from the seed when absent.
    pub cdn_secret: Option<String>,
    /// The CDN customer number; generated from the seed when absent.
    pub cdn_customer: Option<String>,
    /// Simulated seconds per real second (default 1.0; must be > 0).
    pub time_scale: f64,
    /// Random fault injection and added latency.
    pub faults: FaultConfig,
    /// Persist the state in this file (a snapshot) and `FILE.log` (its
    /// change log): loaded at start when it exists, every write on disk
    /// before it is answered. See "Persistence" in the crate docs.
    pub state_file: Option<std::path::PathBuf>,
    /// Largest accepted distance of a CDN timestamp from the CDN clock
    /// (default [`CDN_MAX_SKEW_SECS`]).
    pub cdn_clock_skew_secs: i64,
    /// Check CDN timestamps against simulated time instead of the wall
    /// clock (for clients with an injected clock).
    pub cdn_clock_sim: bool,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            host: std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST),
            port: 0,
            control_token: None,
            tls: None,
            replay: None,
            seed: 0,
            size: 0,
            api_key: None,
            cdn_secret: None,
            cdn_customer: None,
            time_scale: 1.0,
            faults: FaultConfig::default(),
            state_file: None,
            cdn_clock_skew_secs: CDN_MAX_SKEW_SECS,
            cdn_clock_sim: false,
        }
    }
}

impl SimConfig {
    /// Set the seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Set the size knob.
    pub fn with_size(mut self, size: usize) -> Self {
        self.size = size;
        self
    }

    /// Set the time scale.
    pub fn with_time_scale(mut self, scale: f64) -> Self {
        self.time_scale = scale;
        self
    }

    /// Set the fault configuration.
    pub fn with_faults(mut self, faults: FaultConfig) -> Self {
        self.faults = faults;
        self
    }
}

/// https for a simulator: a certificate authority is made at start, its
/// certificate written to `dir/ca.pem` for clients to trust
/// ([`Sim::ca_file`]), and a server certificate it signs covers
/// `localhost`, `127.0.0.1`, `::1` and [`TlsConfig::names`].
#[derive(Debug, Clone, Default)]
pub struct TlsConfig {
    /// More names (or addresses) the certificate covers, e.g. the service
    /// name in docker-compose (`sim`).
    pub names: Vec<String>,
    /// Where `ca.pem` is written (default: a fresh directory under the
    /// system's temporary directory).
    pub dir: Option<std::path::PathBuf>,
}

/// Why the simulator could not start.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The listening socket could not be bound.
    #[error("cannot bind {host}:{port}: {source}")]
    Bind {
        /// The requested address.
        host: std::net::IpAddr,
        /// The requested port.
        port: u16,
        /// The cause.
        source: std::io::Error,
    },
    /// A configuration value is out of range.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// The state file could not be read or written.
    #[error("state file: {0}")]
    State(String),
    /// The TLS certificate or configuration could not be made.
    #[error("tls: {0}")]
    Tls(String),
}

/// Counters of a running simulator.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Stats {
    /// Requests received (including faulted ones).
    pub requests: u64,
    /// Requests whose operation ran, by operation name
    /// (`"GET /v1/bareMetals/{bareMetalId}"`).
    pub operations: BTreeMap<String, u64>,
    /// Faults injected, by kind name ([`FaultKind::name`], plus `latency`).
    pub faults: BTreeMap<String, u64>,
    /// Answers by HTTP status (dropped connections are not counted here).
    pub statuses: BTreeMap<u16, u64>,
}

/// One applied write, in the order applied.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub struct WriteRecord {
    /// 1-based sequence number.
    pub seq: u64,
    /// Operation name (`"PUT /v1/domains/{domainname}"`).
    pub operation: String,
    /// What was written (`"domain acme-1.com"`, `"cloud <id>"`, …).
    pub target: String,
    /// Simulated Unix time of the write.
    pub sim_time: f64,
}

/// A running simulator. Dropping it saves the state file (a final
/// snapshot, when there is one) and shuts the server down gracefully in
/// the background; [`Sim::shutdown`] waits for that.
pub struct Sim {
    inner: Arc<server::Inner>,
    addr: SocketAddr,
    /// The certificate authority's PEM and file, with TLS.
    ca: Option<(String, std::path::PathBuf)>,
    stop: Option<tokio::sync::watch::Sender<bool>>,
    task: Option<tokio::task::JoinHandle<()>>,
    /// The thread running the server of [`Sim::start_blocking`].
    thread: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for Sim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sim").field("addr", &self.addr).finish()
    }
}

impl Sim {
    /// Bind [`SimConfig::host`] (127.0.0.1 by default) and start serving in
    /// the background, on the caller's tokio runtime.
    pub async fn start(config: SimConfig) -> Result<Sim, SimError> {
        server::start(config).await
    }

    /// As [`Sim::start`], for code without an async runtime (or inside a
    /// current-thread one that a blocking client would stall): the server
    /// runs on its own thread with its own tokio runtime. Dropping the
    /// [`Sim`] stops it and waits for the thread (open requests get at most
    /// [`SHUTDOWN_GRACE_MS`]).
    ///
    /// ```no_run
    /// let sim = hostapi_sim::Sim::start_blocking(Default::default())?;
    /// println!("{} {}", sim.base_url(), sim.api_key());
    /// # Ok::<(), hostapi_sim::SimError>(())
    /// ```
    pub fn start_blocking(config: SimConfig) -> Result<Sim, SimError> {
        server::start_blocking(config)
    }

    /// The scheme, host and port clients reach the server at: `127.0.0.1`
    /// (or `[::1]`) when bound to every address.
    fn origin(&self) -> String {
        let scheme = if self.ca.is_some() { "https" } else { "http" };
        let mut addr = self.addr;
        if addr.ip().is_unspecified() {
            addr.set_ip(match addr.ip() {
                std::net::IpAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
                std::net::IpAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
            });
        }
        format!("{scheme}://{addr}")
    }

    /// The v1 and cloud base URL, `http://127.0.0.1:PORT` (`https://…` with
    /// TLS; v1 is under `/v1`, cloud under `/cloud/v2`).
    pub fn base_url(&self) -> String {
        self.origin()
    }

    /// The CDN base URL, `http://127.0.0.1:PORT/cdn`; signed resource paths
    /// are relative to it.
    pub fn cdn_base_url(&self) -> String {
        format!("{}/cdn", self.origin())
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// With TLS, the file holding the certificate authority's certificate
    /// (PEM) that clients trust.
    pub fn ca_file(&self) -> Option<&std::path::Path> {
        self.ca.as_ref().map(|(_, f)| f.as_path())
    }

    /// With TLS, the certificate authority's certificate (PEM).
    pub fn ca_pem(&self) -> Option<&str> {
        self.ca.as_ref().map(|(p, _)| p.as_str())
    }

    /// The token the control API requires, when it requires one
    /// (`Authorization: Bearer TOKEN`).
    pub fn control_token(&self) -> Option<&str> {
        self.inner.control_token.as_deref()
    }

    /// With a replay script, how far it went (as `GET /_sim/replay`).
    pub fn replay_progress(&self) -> Option<ReplayProgress> {
        self.inner
            .replay
            .as_ref()
            .map(|r| state::lock(r).progress())
    }

    /// The API key expected in `X-Svc-Auth`.
    pub fn api_key(&self) -> &str {
        &self.inner.api_key
    }

    /// The CDN signing secret.
    pub fn cdn_secret(&self) -> &str {
        &self.inner.cdn_secret
    }

    /// The CDN customer number the dataset is built for.
    pub fn cdn_customer(&self) -> &str {
        &self.inner.cdn_customer
    }

    /// The v1 customer number of the dataset (administrativeInfo,
    /// private networks).
    pub fn customer_number(&self) -> String {
        self.inner.dataset().customer_number.clone()
    }

    /// A signed CDN URL for `resource_path` (e.g. `/origins/123`) with the
    /// current wall-clock time.
    pub fn cdn_url(&self, resource_path: &str) -> String {
        let ts = chrono::Utc::now().timestamp();
        format!(
            "{}{}/{}/{}",
            self.cdn_base_url(),
            resource_path,
            ts,
            sign_cdn_path(self.cdn_secret(), ts, resource_path)
        )
    }

    /// Current simulated Unix time (seconds).
    pub fn sim_time(&self) -> f64 {
        self.inner.clock.now()
    }

    /// Counters so far.
    pub fn stats(&self) -> Stats {
        state::lock(&self.inner.stats).clone()
    }

    /// The applied writes so far, in order.
    pub fn write_log(&self) -> Vec<WriteRecord> {
        state::lock(&self.inner.state)
            .writes
            .iter()
            .cloned()
            .collect()
    }

    /// Everything mutable, as JSON, with transitions evaluated at the
    /// current simulated time: changed records by kind, private networks,
    /// CDN sub-customers, ACL, origins and purge jobs, and the write log.
    pub fn snapshot(&self) -> serde_json::Value {
        server::snapshot(&self.inner)
    }

    /// The control API's base URL, `http://127.0.0.1:PORT/_sim`.
    pub fn control_url(&self) -> String {
        format!("{}/_sim", self.origin())
    }

    /// As `POST /_sim/reset`: back to the generated dataset, of a new seed
    /// or size when given (the state, write log, fault rules and journal are
    /// cleared; credentials and the simulated clock are kept).
    pub fn reset(&self, seed: Option<u64>, size: Option<usize>) -> Result<(), SimError> {
        let v = control::do_reset(&self.inner, seed, size).map_err(SimError::Config)?;
        changelog::wait(v).map_err(SimError::State)
    }

    /// As `POST /_sim/clock/advance`: move simulated time forward by `secs`
    /// (0 to [`MAX_ADVANCE_SECS`]); pending transitions complete in order.
    /// Answers the new simulated time.
    pub fn advance_clock(&self, secs: f64) -> Result<f64, SimError> {
        let (t, v) = control::do_advance(&self.inner, secs).map_err(SimError::Config)?;
        changelog::wait(v).map_err(SimError::State)?;
        Ok(t)
    }

    /// As `POST /_sim/faults`: add fault rules (all or none); answers them
    /// with their ids.
    pub fn add_faults(&self, rules: Vec<FaultRule>) -> Result<Vec<FaultRule>, SimError> {
        control::do_add_faults(&self.inner, rules).map_err(SimError::Config)
    }

    /// The fault rules in force, with how often each fired.
    pub fn faults(&self) -> Vec<FaultRule> {
        state::lock(&self.inner.rules).rules.clone()
    }

    /// As `DELETE /_sim/faults`.
    pub fn clear_faults(&self) {
        state::lock(&self.inner.rules).clear();
    }

    /// As `GET /_sim/requests[?operation=…]`: the journal, oldest first,
    /// of every operation or of the one `operation` names: an operationId
    /// (`"listDomains"`, `"cloud.listVirtualServers"`) or `METHOD /path`
    /// (`"GET /v1/domains"`). A name of no operation matches nothing; see
    /// [`Sim::requests_of`] to hear of it.
    pub fn requests(&self, operation: Option<&str>) -> Vec<JournalEntry> {
        match operation {
            None => state::lock(&self.inner.journal).list(None),
            Some(name) => self.requests_of(name).unwrap_or_default(),
        }
    }

    /// The journal entries of the operation `name` names (see
    /// [`Sim::requests`]), or why it names none.
    pub fn requests_of(&self, name: &str) -> Result<Vec<JournalEntry>, SimError> {
        let routes = operations::resolve(name).map_err(SimError::Config)?;
        Ok(state::lock(&self.inner.journal).list(Some(&routes)))
    }

    /// As `DELETE /_sim/requests`.
    pub fn clear_requests(&self) {
        state::lock(&self.inner.journal).clear();
    }

    /// As `GET /_sim/state`: everything needed to rebuild this state.
    pub fn export_state(&self) -> serde_json::Value {
        persist::export(&self.inner)
    }

    /// As `PUT /_sim/state`: replace the state by an exported one, after
    /// checking it (the error names the JSON path of what is wrong).
    pub fn import_state(&self, doc: serde_json::Value) -> Result<(), SimError> {
        let doc = persist::parse_value(doc).map_err(SimError::Config)?;
        changelog::wait(persist::import(&self.inner, doc)).map_err(SimError::State)
    }

    /// Every operation as `METHOD /path` (the names of
    /// [`Stats::operations`] and the write log; fault rules and the
    /// journal also take the operationIds of [`OPERATIONS`]).
    pub fn operations() -> Vec<&'static str> {
        router::operations()
    }

    /// Stop accepting, let open requests finish (at most
    /// [`SHUTDOWN_GRACE_MS`]), and return.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(true);
        }
        if let Some(task) = self.task.take() {
            let grace = std::time::Duration::from_millis(SHUTDOWN_GRACE_MS + 1_000);
            let _ = tokio::time::timeout(grace, task).await;
        }
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(true);
        }
        // Save the state file now (a final snapshot): the runtime may end
        // before the server's task does.
        self.inner.log.close();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The quirk keys the dataset varies over, each with its alternatives (see
/// "How variants are chosen" in the crate docs): for tests that check a
/// client meets every documented spelling.
pub fn quirks() -> impl Iterator<Item = (&'static str, Vec<&'static str>)> {
    variants::q::ALL
        .iter()
        .map(|q| (q.key, q.alternatives.iter().map(|a| a.0).collect()))
}

/// The CDN signature of `path` at `timestamp`: lowercase hex
/// SHA-1(secret ‖ timestamp ‖ path).
pub fn sign_cdn_path(secret: &str, timestamp: i64, path: &str) -> String {
    sign_cdn_text(secret, &timestamp.to_string(), path)
}

/// The CDN signature over a timestamp's text as sent.
pub(crate) fn sign_cdn_text(secret: &str, timestamp: &str, path: &str) -> String {
    use sha1::{Digest, Sha1};
    let mut h = Sha1::new();
    h.update(secret.as_bytes());
    h.update(timestamp.as_bytes());
    h.update(path.as_bytes());
    hex::encode(h.finalize())
}
