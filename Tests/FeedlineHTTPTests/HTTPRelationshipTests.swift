@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import Foundation
import Testing

/// Profiles and relationships over HTTP, checked on what the server received: the endpoint,
/// query and JSON body of every change, one call for many relationships, finding a remote
/// account the server has not seen, refusals, and a profile's HTML as text.
@Suite("HTTP relationships")
struct HTTPRelationshipTests {
    static let joined = Date(timeIntervalSince1970: 1_667_779_200)  // 2022-11-07, as Mastodon sends it
    static let kemi = Mastodon.Account(id: "2001", username: "kemi", acct: "kemi", displayName: "Kemi")
    static let ash = Mastodon.Account(id: "2002", username: "ash", acct: "ash", displayName: "Ash", locked: true)
    /// An account on another server (a port in its host) that this server has not seen yet.
    static let remoteKemi = Mastodon.Account(id: "3001", username: "kemi", acct: "kemi@127.0.0.1:8080", displayName: "Kemi elsewhere")

    // MARK: - Changes

    /// One change and what must go over the wire for it.
    struct Change: Sendable, CustomTestStringConvertible {
        var kind: RelationshipKind
        var value: Bool
        var mute = MuteOptions()
        /// The relationship on the server before.
        var before: Mastodon.Relationship
        /// The endpoint under `/api/v1/accounts/2001/`.
        var action: String
        /// The exact JSON body, `nil` for none.
        var body: String?

        var testDescription: String { "\(kind.verb(value)) → POST …/\(action) \(body ?? "(no body)")" }
    }

    static let changes: [Change] = [
        Change(kind: .follow, value: true, before: .init(id: "2001"), action: "follow", body: "{}"),
        Change(kind: .follow, value: false, before: .init(id: "2001", following: true, showingReblogs: true), action: "unfollow"),
        Change(
            kind: .mute, value: true, mute: MuteOptions(duration: .seconds(3600), notifications: false), before: .init(id: "2001"),
            action: "mute", body: #"{"duration":3600,"notifications":false}"#
        ),
        Change(kind: .mute, value: true, before: .init(id: "2001"), action: "mute", body: #"{"notifications":true}"#),
        Change(
            kind: .mute, value: true, mute: MuteOptions(duration: .milliseconds(90_500)), before: .init(id: "2001"),
            action: "mute", body: #"{"duration":91,"notifications":true}"#
        ),
        Change(kind: .mute, value: false, before: .init(id: "2001", muting: true, mutingNotifications: true), action: "unmute"),
        Change(kind: .block, value: true, before: .init(id: "2001", following: true, showingReblogs: true), action: "block"),
        Change(kind: .block, value: false, before: .init(id: "2001", blocking: true), action: "unblock"),
        Change(kind: .notify, value: true, before: .init(id: "2001", following: true, showingReblogs: true), action: "follow", body: #"{"notify":true}"#),
        Change(
            kind: .notify, value: false, before: .init(id: "2001", following: true, showingReblogs: true, notifying: true), action: "follow",
            body: #"{"notify":false}"#
        ),
        Change(kind: .boosts, value: true, before: .init(id: "2001", following: true), action: "follow", body: #"{"reblogs":true}"#),
        Change(
            kind: .boosts, value: false, before: .init(id: "2001", following: true, showingReblogs: true), action: "follow",
            body: #"{"reblogs":false}"#
        ),
    ]

    @Test("each kind and value is one POST to its endpoint with its JSON body, and returns the server's relationship", arguments: changes)
    func change(_ change: Change) async throws {
        try await withAccountsServer(accounts: [Self.kemi], relationships: [change.before]) { fake, server in
            let service = try makeService(server)
            let relationship = try await service.setRelationship(change.kind, to: change.value, of: AccountID("2001"), mute: change.mute)

            // Notify and boosts ride on follow: the relationship is read first (a stranger is not followed by them).
            let read = change.kind == .notify || change.kind == .boosts ? ["GET /api/v1/accounts/relationships?id[]=2001"] : []
            let requests = fake.requests
            #expect(requests.map(\.description) == read + ["POST /api/v1/accounts/2001/\(change.action)"])
            let request = try #require(requests.last)
            #expect(request.authorization == "Bearer \(secretToken)")
            if let body = change.body {
                #expect(request.contentType?.hasPrefix("application/json") == true, "\(request.contentType ?? "no Content-Type")")
                #expect(request.bodyText == body)
            } else {
                #expect(request.body.isEmpty, "\(request.bodyText)")
            }
            var answer = Relationship(fake.relationship("2001"))
            // Mastodon's relationship has no end of a mute: one made with a duration ends then, from now.
            if change.kind == .mute, change.value, let seconds = change.mute.duration?.components.seconds {
                answer.mutingUntil = Date(timeIntervalSince1970: 1_795_348_800).addingTimeInterval(Double(seconds + (change.mute.duration == .seconds(seconds) ? 0 : 1)))
            }
            #expect(relationship == answer, "the relationship is the server's answer")
            #expect(relationship.accountID == AccountID("2001"))
            #expect(relationship.isOn(change.kind) == change.value)
        }
    }

    @Test("post notifications or boosts of an account not followed are refused with nothing sent (a follow with notify would follow it); asked as they are, they answer as they are")
    func notifyNeedsAFollow() async throws {
        try await withAccountsServer(accounts: [Self.kemi], relationships: [.init(id: "2001")]) { fake, server in
            let service = try makeService(server)
            for kind in [RelationshipKind.notify, .boosts] {
                let refused = await thrownError { _ = try await service.setRelationship(kind, to: true, of: AccountID("2001"), mute: MuteOptions()) }
                let failure = FeedFailure(try #require(refused))
                #expect(failure.message.contains("accounts you follow; follow account 2001 first"), "\(failure.message)")
                #expect(!failure.isTransient)
            }
            let off = try await service.setRelationship(.notify, to: false, of: AccountID("2001"), mute: MuteOptions())
            #expect(off == Relationship(fake.relationship("2001")) && !off.following)
            #expect(fake.requests.allSatisfy { $0.method == "GET" }, "\(fake.requests.map(\.description))")
            #expect(!fake.relationship("2001").following, "nobody was followed")
        }
    }

    @Test("a follow of a locked account is a request: requested, not following")
    func followOfLockedAccount() async throws {
        try await withAccountsServer(accounts: [Self.ash]) { fake, server in
            let service = try makeService(server)
            let relationship = try await service.setRelationship(.follow, to: true, of: AccountID("2002"), mute: MuteOptions())
            #expect(relationship == Relationship(accountID: AccountID("2002"), requested: true, showingBoosts: true))
            #expect(!relationship.following)
            #expect(relationship.isOn(.follow), "a request answers a follow as the server took it")

            // Mastodon's answer as its documentation shows it, and a sparse one (an integer id,
            // no showing_reblogs, a null note) as other servers send.
            fake.enqueue(
                "POST", "/api/v1/accounts/2002/follow",
                HTTPWritingServer.Answer(
                    status: 200,
                    body: """
                        {"id":"2002","following":false,"showing_reblogs":true,"notifying":false,"languages":null,"followed_by":true,\
                        "blocking":false,"blocked_by":false,"muting":false,"muting_notifications":false,"requested":true,\
                        "requested_by":false,"domain_blocking":false,"endorsed":false,"note":"met at the birding club"}
                        """
                )
            )
            fake.enqueue(
                "POST", "/api/v1/accounts/2002/follow",
                HTTPWritingServer.Answer(status: 200, body: #"{"id":2002,"following":false,"requested":true,"note":null}"#)
            )
            let documented = try await service.setRelationship(.follow, to: true, of: AccountID("2002"), mute: MuteOptions())
            #expect(
                documented
                    == Relationship(
                        accountID: AccountID("2002"), requested: true, followedBy: true, showingBoosts: true, note: "met at the birding club"
                    )
            )
            let sparse = try await service.setRelationship(.follow, to: true, of: AccountID("2002"), mute: MuteOptions())
            #expect(sparse == Relationship(accountID: AccountID("2002"), requested: true, showingBoosts: true))
            #expect(fake.requests.count == 3)
        }
    }

    @Test("a 403 on a follow names feedline login; a 404 names the account")
    func refusals() async throws {
        try await withAccountsServer(accounts: [Self.kemi]) { fake, server in
            let service = try makeService(server)
            fake.enqueue("POST", "/api/v1/accounts/2001/follow", .error(403, "This action is outside the authorized scopes"))
            let refused = await thrownError {
                _ = try await service.setRelationship(.follow, to: true, of: AccountID("2001"), mute: MuteOptions())
            }
            #expect(
                refused as? MastodonHTTPError
                    == .writeRefused(serverMessage: "This action is outside the authorized scopes", server: server.loginArgument)
            )
            let failure = FeedFailure(try #require(refused))
            #expect(failure.message.contains("feedline login \(server.loginArgument)"), "\(failure.message)")
            #expect(!failure.isTransient)
            expectNoToken(failure)

            let missing = await thrownError {
                _ = try await service.setRelationship(.block, to: true, of: AccountID("9999"), mute: MuteOptions())
            }
            #expect(missing as? MastodonHTTPError == .notFound(serverMessage: "There is no account 9999 (asked \(server))"))
            let noProfile = await thrownError { _ = try await service.profile(of: AccountID("9999")) }
            #expect(noProfile as? MastodonHTTPError == .notFound(serverMessage: "There is no account 9999 (asked \(server))"))
            #expect(
                fake.requests.map(\.description) == [
                    "POST /api/v1/accounts/2001/follow", "POST /api/v1/accounts/9999/block", "GET /api/v1/accounts/9999",
                ]
            )
        }
    }

    // MARK: - Relationships

    @Test("relationships: one GET with id[] repeated, handles looked up first and once, unknown accounts left out")
    func relationshipsInOneCall() async throws {
        try await withAccountsServer(
            accounts: [Self.kemi, Self.ash],
            relationships: [.init(id: "2001", following: true, showingReblogs: true), .init(id: "2002", followedBy: true, requested: true)]
        ) { fake, server in
            let service = try makeService(server)
            #expect(try await service.relationships(of: []) == [])
            #expect(fake.requests.isEmpty, "nothing to ask: no request")

            let found = try await service.relationships(of: [
                AccountID("2001"), AccountID(handle: "@ash"), AccountID("2001"), AccountID(handle: "nobody"), AccountID("9999"),
            ])
            #expect(
                found == [
                    Relationship(accountID: AccountID("2001"), following: true, showingBoosts: true),
                    Relationship(accountID: AccountID("2002"), requested: true, followedBy: true, showingBoosts: false),
                ]
            )
            #expect(
                fake.requests.map(\.description) == [
                    "GET /api/v1/accounts/lookup?acct=ash", "GET /api/v1/accounts/lookup?acct=nobody",
                    "GET /api/v1/accounts/relationships?id[]=2001&id[]=2002&id[]=9999",
                ]
            )

            // The handle is known now: no lookup, and a handle that names nobody alone asks nothing.
            let again = try await service.relationships(of: [AccountID(handle: "ash")])
            #expect(again.map(\.accountID) == [AccountID("2002")])
            #expect(try await service.relationships(of: [AccountID(handle: "nobody")]) == [])
            #expect(
                fake.requests.map(\.description).suffix(2) == [
                    "GET /api/v1/accounts/relationships?id[]=2002", "GET /api/v1/accounts/lookup?acct=nobody",
                ]
            )
            #expect(fake.requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }

    // MARK: - Finding accounts

    @Test("a remote handle the lookup does not know is found by a resolving search, once")
    func remoteHandleFoundBySearch() async throws {
        try await withAccountsServer(accounts: [Self.kemi], remote: [Self.remoteKemi]) { fake, server in
            let service = try makeService(server)
            let handle = AccountID(handle: "@kemi@127.0.0.1:8080")
            let profile = try await service.profile(of: handle)
            #expect(profile == Profile(Self.remoteKemi))
            #expect(profile.author.handle == "kemi@127.0.0.1:8080")
            #expect(profile.accountID == AccountID("3001"))
            #expect(
                fake.requests.map(\.description) == [
                    "GET /api/v1/accounts/lookup?acct=kemi@127.0.0.1:8080",
                    "GET /api/v2/search?q=@kemi@127.0.0.1:8080&type=accounts&resolve=true&limit=1",
                ]
            )

            // Found once: the profile again and a follow go to its id.
            #expect(try await service.profile(of: handle) == profile)
            let followed = try await service.setRelationship(.follow, to: true, of: handle, mute: MuteOptions())
            #expect(followed.accountID == AccountID("3001") && followed.following)
            #expect(
                fake.requests.map(\.description).suffix(2) == ["GET /api/v1/accounts/3001", "POST /api/v1/accounts/3001/follow"]
            )
        }
    }

    @Test("a handle neither the lookup nor the search finds keeps the lookup's sentence; signed out, no search")
    func handleFoundNowhere() async throws {
        try await withAccountsServer(accounts: [Self.kemi]) { fake, server in
            let message = "There is no account @nobody@nowhere.example (asked \(server))"
            let service = try makeService(server)
            let error = await thrownError { _ = try await service.profile(of: AccountID(handle: "nobody@nowhere.example")) }
            #expect(error as? MastodonHTTPError == .notFound(serverMessage: message))
            #expect(
                fake.requests.map(\.description) == [
                    "GET /api/v1/accounts/lookup?acct=nobody@nowhere.example",
                    "GET /api/v2/search?q=@nobody@nowhere.example&type=accounts&resolve=true&limit=1",
                ]
            )

            let signedOut = try makeService(server, token: nil)
            let unseen = await thrownError { _ = try await signedOut.profile(of: AccountID(handle: "nobody@nowhere.example")) }
            #expect(unseen as? MastodonHTTPError == .notFound(serverMessage: message))
            #expect(fake.requests.count == 3, "a search that resolves needs a user: not asked signed out")
            #expect(fake.requests.last?.description == "GET /api/v1/accounts/lookup?acct=nobody@nowhere.example")
        }
    }

    // MARK: - Profiles

    @Test("a profile: bio and field values as text, counts, bot, locked, group and where it moved")
    func profileAsText() async throws {
        let moved = Mastodon.Account(id: "4001", username: "mira", acct: "mira@new.example", displayName: "Mira")
        let mira = Mastodon.Account(
            id: "2003", username: "mira", acct: "mira", displayName: "Mira :birb:", locked: true, bot: true, createdAt: Self.joined,
            note: """
                <p>Birds &amp; code.<br>She/her</p><p>Posts in <a href="https://example.social/tags/birds" class="mention hashtag" \
                rel="tag">#<span>birds</span></a></p>
                """,
            followersCount: 120, followingCount: 45, statusesCount: 6789,
            fields: [
                .init(name: "Pronouns", value: "she/her"),
                .init(
                    name: "Site",
                    value: """
                        <a href="https://mira.example" target="_blank" rel="nofollow noopener me"><span class="invisible">https://\
                        </span><span class="">mira.example</span><span class="invisible"></span></a>
                        """,
                    verifiedAt: Self.joined
                ),
            ],
            group: true, moved: moved
        )
        try await withAccountsServer(accounts: [mira]) { fake, server in
            let service = try makeService(server)
            let profile = try await service.profile(of: AccountID("2003"))
            #expect(
                profile
                    == Profile(
                        author: Author(id: "2003", displayName: "Mira :birb:", handle: "mira"),
                        bio: "Birds & code.\nShe/her\n\nPosts in #birds",
                        fields: [.init(name: "Pronouns", value: "she/her"), .init(name: "Site", value: "mira.example", verified: true)],
                        followersCount: 120, followingCount: 45, postsCount: 6789, joined: Self.joined,
                        bot: true, locked: true, group: true,
                        movedTo: Author(id: "4001", displayName: "Mira", handle: "mira@new.example")
                    )
            )
            #expect(fake.requests.map(\.description) == ["GET /api/v1/accounts/2003"])
        }
    }

    @Test("an account decodes tolerantly: group and moved absent or null, and a move that moved on")
    func accountDecoding() async throws {
        let sparse = try Mastodon.decode(Mastodon.Account.self, from: Data(#"{"id":5,"acct":"pat","group":null,"moved":null}"#.utf8))
        #expect(sparse.group == false && sparse.moved == nil)
        #expect(Profile(sparse) == Profile(author: Author(id: "5", displayName: "", handle: "pat")))

        let chain = try Mastodon.decode(
            Mastodon.Account.self,
            from: Data(
                #"{"id":"6","acct":"old","group":true,"moved":{"id":"7","acct":"mid@b.example","moved":{"id":"8","acct":"new@c.example"}}}"#.utf8
            )
        )
        #expect(chain.group)
        #expect(chain.moved?.acct == "mid@b.example")
        #expect(chain.moved?.moved?.acct == "new@c.example")
        #expect(Profile(chain).movedTo == Author(id: "7", displayName: "", handle: "mid@b.example"), "the profile names the first move")
        // Written as Mastodon does, it reads back the same.
        #expect(try Mastodon.decode(Mastodon.Account.self, from: Mastodon.makeEncoder().encode(chain)) == chain)
    }
}
