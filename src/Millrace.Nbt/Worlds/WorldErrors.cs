namespace Millrace.Nbt.Worlds;

/// <summary>The errors of the world model: well-formed NBT that the game would not have written.</summary>
internal static class WorldErrors
{
    /// <summary>A tree that is not what the game writes, located by its tag path (a tree has no byte offsets).</summary>
    public static MillraceException Invalid(string reason, string path) =>
        new(new Error(NbtErrorCodes.World, reason) { Path = path });

    /// <summary>The same error, its path now under <paramref name="outer"/> (an entry's path under its list's).</summary>
    public static MillraceException Within(string outer, Error inner) =>
        new(inner with { Path = inner.Path is not { Length: > 0 } path ? outer : outer.Length == 0 ? path : path[0] == '[' ? outer + path : outer + "." + path });
}
