// A POS -> service token (interface §5): HS256 with the partner's non-prod key, the standard library only.
//
// Usage: SANDBOX_PARTNER=<POS name> SANDBOX_NONPROD_KEY=<key> java Token.java <location id>
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class Token {
    private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();

    static String posToken(String posName, String locationId, String key, long ttlSeconds) throws Exception {
        long now = System.currentTimeMillis() / 1000; // whole seconds: exp in milliseconds is refused
        String header = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";
        String claims = "{\"sub\":" + json(locationId) // the location of the call, as in x-service-locationid
            + ",\"jti\":" + json(UUID.randomUUID().toString()) // a new one for every token
            + ",\"nbf\":" + now
            + ",\"exp\":" + (now + ttlSeconds)
            + ",\"iss\":" + json(posName)
            + ",\"aud\":\"io.service.pos.brokers.openapi\"}";
        String signingInput = b64url(header) + "." + b64url(claims);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        byte[] signature = mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII));
        return signingInput + "." + B64URL.encodeToString(signature);
    }

    private static String b64url(String json) {
        return B64URL.encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    /** A JSON string: quotes, backslashes and control characters escaped. */
    private static String json(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append('"').toString();
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: SANDBOX_PARTNER=<POS name> SANDBOX_NONPROD_KEY=<key> java Token.java <location id>");
            System.exit(2);
        }
        System.out.println(posToken(System.getenv("SANDBOX_PARTNER"), args[0], System.getenv("SANDBOX_NONPROD_KEY"), 300));
    }
}
