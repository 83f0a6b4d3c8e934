using Google.Protobuf;
using Millrace.Benchmarks.Compact.Proto;

namespace Millrace.Benchmarks.Compact;

/// <summary>The seed's records as Google.Protobuf messages, holding the same values.</summary>
internal static class ProtoMapping
{
    public static User ToProto(SeedUser user)
    {
        var proto = new User { Id = user.Id };
        if (user.Name is not null)
        {
            proto.Name = user.Name;
        }

        if (user.Email is not null)
        {
            proto.Email = user.Email;
        }

        if (user.Age is { } age)
        {
            proto.Age = age;
        }

        if (user.Active is { } active)
        {
            proto.Active = active;
        }

        if (user.CreatedAt is { } created)
        {
            proto.CreatedAtTicks = created.UtcTicks - DateTimeOffset.UnixEpoch.UtcTicks;
        }

        if (user.Metadata is not null)
        {
            proto.Metadata.Add(user.Metadata);
        }

        return proto;
    }

    public static Product ToProto(SeedProduct product)
    {
        var proto = new Product { Id = product.Id, Name = product.Name, Description = product.Description, Price = product.Price!.Value, Category = product.Category, InStock = product.InStock!.Value };
        proto.Tags.Add(product.Tags);
        proto.Specs.Add(product.Specs);
        return proto;
    }

    public static Large ToProto(SeedLarge large)
    {
        var proto = new Large();
        var descriptor = Large.Descriptor;
        foreach (var property in typeof(SeedLarge).GetProperties().Where(p => p.Name.StartsWith("Field", StringComparison.Ordinal)))
        {
            if (property.GetValue(large) is { } value)
            {
                var number = int.Parse(property.Name.AsSpan(5), System.Globalization.CultureInfo.InvariantCulture);
                descriptor.FindFieldByNumber(number).Accessor.SetValue(proto, value);
            }
        }

        return proto;
    }

    public static UserList ToProto(IEnumerable<SeedUser> users)
    {
        var list = new UserList();
        list.Users.Add(users.Select(ToProto));
        return list;
    }

    public static IMessage Parse(MessageParser parser, byte[] bytes) => parser.ParseFrom(bytes);
}
