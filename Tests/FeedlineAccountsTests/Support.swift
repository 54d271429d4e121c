import FeedlineAccounts
import FeedlineMastodon
import FeedlineTestSupport
import Foundation

/// The token the stored accounts of these tests carry; tests check it never shows.
let storedSecret = "stored-T0KEN-never-print-4b5c"

/// An account on `host` as a sign-in would store it, signed in `minutes` after a fixed moment.
func makeAccount(_ username: String, on host: String, minutes: Double = 0, secret: String = storedSecret) throws -> StoredAccount {
    let server = try MastodonServer(parsing: host)
    let client = AppRegistration(
        server: server, clientID: "client-\(host)", clientSecret: "client-secret-\(host)",
        scopes: ["read", "write:favourites", "write:statuses", "write:bookmarks"], redirectURI: "urn:ietf:wg:oauth:2.0:oob"
    )
    return try StoredAccount(
        server: server, username: username, accountID: "42", secret: secret, scopes: client.scopes,
        signedInAt: Date(timeIntervalSince1970: 1_795_348_800 + minutes * 60), client: client,
        revocationEndpoint: server.url.appendingPathComponent("oauth/revoke")
    )
}

/// A store in a fresh scratch directory.
struct ScratchStore {
    let scratch: Scratch
    let store: AccountStore

    init() throws {
        scratch = try Scratch()
        store = AccountStore(directory: FeedlineDirectory(url: scratch.url.appendingPathComponent("feedline")))
    }

    var accountsFolder: URL { store.directory.accounts }

    func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: accountsFolder.path)) ?? []).sorted()
    }

    func mode(_ url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions] as? Int
    }

    func remove() { scratch.remove() }
}
