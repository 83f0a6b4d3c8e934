// Decodes a base64url JSON payload (as a message queue or a JWT-style header carries it) straight to an object:
// the decoded bytes go to a pooled buffer that is cleared and returned; no intermediate string is made.
using System.Text;
using System.Text.Json.Serialization;
using Millrace.Json.Base64;

var payload = Convert.ToBase64String(Encoding.UTF8.GetBytes("""{"orderId":1042,"customer":"Ann","items":["kettle","tea"],"total":39.5}"""))
    .TrimEnd('=').Replace('+', '-').Replace('/', '_');
Console.WriteLine($"payload: {payload}");

var order = Base64Json.Deserialize(payload, SampleJson.Default.Order);
Console.WriteLine(order.IsSuccess ? $"order {order.Value.OrderId} for {order.Value.Customer}: {string.Join(", ", order.Value.Items)} = {order.Value.Total}" : order.Error.ToString());

// Bad input is a typed error with the offset of the offending character, never an exception from deep inside.
var broken = Base64Json.Deserialize(payload[..10] + "*" + payload[11..], SampleJson.Default.Order);
Console.WriteLine($"broken payload: {broken.Error}");

/// <summary>An order message.</summary>
internal sealed record Order(int OrderId, string Customer, string[] Items, decimal Total);

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(Order))]
internal sealed partial class SampleJson : JsonSerializerContext;
