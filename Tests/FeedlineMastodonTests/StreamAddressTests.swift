import FeedlineMastodon
import Foundation
import Testing

/// Where the user stream is looked for besides the server itself: what a server's description
/// says, and which announced addresses are trusted with the token.
@Suite("Stream address")
struct StreamAddressTests {
    @Test("the description names the streaming base in v2's configuration.urls.streaming or v1's urls.streaming_api")
    func descriptions() throws {
        func streaming(_ json: String) throws -> String? {
            try Mastodon.decode(Mastodon.Instance.self, from: Data(json.utf8)).streamingURL
        }
        #expect(try streaming(#"{"domain":"example.social","configuration":{"urls":{"streaming":"wss://streaming.example.social"}}}"#) == "wss://streaming.example.social")
        #expect(try streaming(#"{"uri":"example.social","urls":{"streaming_api":"wss://example.social"}}"#) == "wss://example.social")
        #expect(try streaming(#"{"configuration":{"urls":{"streaming":"wss://a"}},"urls":{"streaming_api":"wss://b"}}"#) == "wss://a", "v2's wins")
        for json in [#"{}"#, #"{"configuration":{}}"#, #"{"configuration":{"urls":{}}}"#, #"{"urls":{}}"#] {
            #expect(try streaming(json) == nil, "\(json)")
        }
    }

    @Test("an announced address is used only over https (http only for an http server), on a host, without credentials, query or fragment, and not the server's own")
    func announcedAddresses() throws {
        let server = try MastodonServer(parsing: "https://example.social")
        let local = try MastodonServer(parsing: "http://127.0.0.1:8080")
        func address(_ announced: String, _ on: MastodonServer = server) -> String? {
            MastodonHTTPService.userStreamURL(announced: announced, server: on)?.absoluteString
        }
        #expect(address("wss://streaming.example.social") == "https://streaming.example.social/api/v1/streaming/user")
        #expect(address("https://Streaming.Example.social/") == "https://streaming.example.social/api/v1/streaming/user")
        #expect(address(" wss://streaming.example.social/base// ") == "https://streaming.example.social/base/api/v1/streaming/user")
        #expect(address("wss://streaming.example.social:4000") == "https://streaming.example.social:4000/api/v1/streaming/user")
        #expect(address("ws://localhost:8080", local) == "http://localhost:8080/api/v1/streaming/user")
        for refused in [
            "ws://streaming.example.social", "http://streaming.example.social", "ftp://streaming.example.social", "wss://",
            "wss://user:pw@streaming.example.social", "wss://streaming.example.social?x=1", "wss://streaming.example.social#f",
            "wss://example.social", "not a url", "",
        ] {
            #expect(address(refused) == nil, "\(refused.debugDescription) must not get the token")
        }
        #expect(address("ws://127.0.0.1:8080", local) == nil, "the server's own address was just tried")
        // A server on this machine may name a plain-http stream only on this machine: the token
        // goes with it, and must not cross a network in clear.
        for elsewhere in ["ws://streaming.example.social", "http://10.0.0.7:4000", "ws://localhost.evil.example"] {
            #expect(address(elsewhere, local) == nil, "\(elsewhere) must not get the token in clear")
        }
        #expect(address("wss://streaming.example.social", local) == "https://streaming.example.social/api/v1/streaming/user")
    }
}
