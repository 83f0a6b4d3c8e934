using Microsoft.FSharp.Core;

namespace Millrace.Testing;

/// <summary>Runs FsCheck properties from a fixed seed, so a property test is as repeatable as any other.</summary>
internal static class PropertyCheck
{
    private const ulong Gamma = 0x9E3779B97F4A7C15UL;

    public static void Run(Property property, int maxTest = 500, ulong seed = 0x5EED)
    {
        var config = Config.QuickThrowOnFailure
            .WithMaxTest(maxTest)
            .WithQuietOnSuccess(true)
            .WithReplay(new Replay(new Rnd(seed, Gamma), FSharpOption<int>.None));
        Check.One(config, property);
    }
}
