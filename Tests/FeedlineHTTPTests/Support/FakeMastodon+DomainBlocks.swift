import Feedline
import FeedlineMastodon
import FeedlineTestSupport
import FlyingFox
import Foundation

/// The user's domain blocks, with Mastodon's rules:
///
/// - `GET /api/v1/domain_blocks`: the blocked domains (a JSON array of strings), newest block
///   first, paged by the id of the block *record*, which the names do not carry: `max_id`,
///   `since_id`, `min_id` name records and only `Link` tells them (`next` when the page is full,
///   `prev` when it is not empty). `limit` is 100 by default, at most 200, and at most
///   ``largestDomainBlocksPage``.
/// - `POST /api/v1/domain_blocks` with `domain` (form field) adds a block (none when there is one
///   already); `DELETE /api/v1/domain_blocks` with `domain` (query) removes it (nothing when there
///   is none). Both answer `{}`; no `domain` is 400; the server's own domain (its host, with or
///   without the port) is 422 with an `error`.
///
/// All three need a user (401). Which domains are blocked, and in what order, is the model's
/// (``ServerModel/domainBlocks``, whose laws they follow); the fake keeps only each block's
/// record id, which Mastodon pages by. Domains are kept lower-cased.
extension FakeMastodon {
    /// What the server keeps for these endpoints besides the model (``FakeMastodon/State/domainBlocks``).
    struct DomainBlocksState: Sendable {
        /// A block: its record id and the domain.
        struct Record: Sendable, Hashable {
            var id: UInt64
            var domain: String
        }

        /// The record id of each blocked domain's block; the blocks themselves are the model's.
        var recordIDs: [String: UInt64] = [:]
        /// The next record id: a sequence of its own.
        var nextRecord: UInt64 = 730_000
        /// The most domains a page holds whatever `limit` asks (Mastodon's 200).
        var largestPage = 200
    }

    /// The `error` of the 422 for blocking the server's own domain.
    static let ownDomainRefusal = "Validation failed: Domain cannot be your own server's domain"

    // MARK: - Test controls

    /// Blocks `domains`, in this order from the newest record, above those already blocked.
    func blockDomains(_ domains: [String]) {
        state.withLock { state in
            for domain in domains.reversed() { state.blockDomain(domain.lowercased()) }
        }
    }

    /// The blocked domains now, newest block first.
    var blockedDomains: [String] {
        state.withLock { $0.domainBlockRecords.map(\.domain) }
    }

    /// The record ids of the blocks now, newest first (what `max_id` names).
    var domainBlockRecordIDs: [UInt64] {
        state.withLock { $0.domainBlockRecords.map(\.id) }
    }

    /// The most domains a page holds, whatever the client asks.
    var largestDomainBlocksPage: Int {
        get { state.withLock { $0.domainBlocks.largestPage } }
        set { state.withLock { $0.domainBlocks.largestPage = newValue } }
    }

    // MARK: - Serving

    /// The answer for a request of these endpoints, `nil` for any other. Called with requests
    /// whose token the server accepted: here a request is signed in when it carries one.
    func domainBlocksRoute(_ request: Recorded) -> HTTPResponse? {
        guard request.path == "/api/v1/domain_blocks" else { return nil }
        guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
        switch request.method {
        case "GET":
            return domainBlocksPage(request)
        case "POST", "DELETE":
            let given = request.method == "POST" ? request.form["domain"] : request.query["domain"]
            guard let domain = given?.trimmingCharacters(in: .whitespaces).lowercased(), !domain.isEmpty else {
                return Self.error(400, "param is missing or the value is empty: domain")
            }
            return request.method == "POST" ? block(domain) : unblock(domain)
        default:
            return unexpected(request)
        }
    }

    private func domainBlocksPage(_ request: Recorded) -> HTTPResponse {
        let (records, largest) = state.withLock { ($0.domainBlockRecords, $0.domainBlocks.largestPage) }
        let limit = Self.limit(request, default: min(100, largest), maximum: min(200, largest))
        let page = Self.window(records, id: \.id, request, limit: limit)
        let links = link(request, next: page.count == limit ? page.last.map { String($0.id) } : nil, previous: page.first.map { String($0.id) })
        return Self.json(page.map(\.domain), headers: links)
    }

    private func block(_ domain: String) -> HTTPResponse {
        let host = URL(string: baseURL)?.host ?? "127.0.0.1"
        if domain == host || domain == URL(string: baseURL).flatMap({ url in url.port.map { "\(host):\($0)" } }) {
            return Self.error(422, Self.ownDomainRefusal)
        }
        // The model refuses what is no domain name (Mastodon's DomainValidator).
        guard state.withLock({ $0.blockDomain(domain) }) else { return Self.error(422, "Validation failed: Domain is not a valid domain name") }
        return Self.response(200, [:], Data("{}".utf8))
    }

    private func unblock(_ domain: String) -> HTTPResponse {
        state.withLock { state in
            try? state.server.domainBlocks.set(domain, to: false)
            state.domainBlocks.recordIDs[domain] = nil
        }
        return Self.response(200, [:], Data("{}".utf8))
    }
}

extension FakeMastodon.State {
    /// The model's blocks, newest first, each with its record id.
    var domainBlockRecords: [FakeMastodon.DomainBlocksState.Record] {
        server.domainBlocks.domains.map { FakeMastodon.DomainBlocksState.Record(id: domainBlocks.recordIDs[$0] ?? 0, domain: $0) }
    }

    /// Blocks `domain` in the model (once), its block taking the next record id; `false` when
    /// the model refuses it.
    @discardableResult
    mutating func blockDomain(_ domain: String) -> Bool {
        let key = ServerDomainBlocks.key(domain)
        let blocked = server.domainBlocks.isBlocked(key)
        guard (try? server.domainBlocks.set(key, to: true)) != nil else { return false }
        if !blocked {
            domainBlocks.recordIDs[key] = domainBlocks.nextRecord
            domainBlocks.nextRecord += 1
        }
        return true
    }
}
