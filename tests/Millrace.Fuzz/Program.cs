using System.Diagnostics;
using System.Globalization;
using Millrace.Fuzz;

// millrace-fuzz list                         the targets
// millrace-fuzz smoke [--seconds N] [TARGET] every target (or one) over its seeds and their mutations, in process, for N seconds
// millrace-fuzz replay TARGET FILE...        one target over saved inputs (a crash AFL found, a regression)
// millrace-fuzz seeds DIR                    write every target's seeds to DIR/TARGET/, as afl-fuzz's -i corpus
// millrace-fuzz afl TARGET                   run under afl-fuzz, instrumented by SharpFuzz (see README.md)
// A finding is any exception but the library's own, an input that takes over 5 s, or one that allocates over 256 MiB.
var command = args.Length > 0 ? args[0] : "smoke";
switch (command)
{
    case "list":
        foreach (var target in FuzzTargets.All)
        {
            Console.WriteLine(target.Name);
        }

        return 0;
    case "seeds":
        foreach (var target in FuzzTargets.All)
        {
            var directory = Directory.CreateDirectory(Path.Combine(args[1], target.Name));
            var index = 0;
            foreach (var seed in target.Seeds())
            {
                File.WriteAllBytes(Path.Combine(directory.FullName, string.Create(CultureInfo.InvariantCulture, $"seed{index++}.bin")), seed);
            }
        }

        return 0;
    case "afl":
        {
            var target = Find(args[1]);
            SharpFuzz.Fuzzer.OutOfProcess.Run(stream =>
            {
                using var buffer = new MemoryStream();
                stream.CopyTo(buffer);
                Run(target, buffer.ToArray());
            });
            return 0;
        }

    case "replay":
        {
            var target = Find(args[1]);
            var findings = 0;
            foreach (var file in args.Skip(2))
            {
                findings += Check(target, File.ReadAllBytes(file), file) ? 0 : 1;
            }

            return findings == 0 ? 0 : 1;
        }

    case "smoke":
        {
            var seconds = 60;
            string? only = null;
            for (var i = 1; i < args.Length; i++)
            {
                if (args[i] == "--seconds")
                {
                    seconds = int.Parse(args[++i], CultureInfo.InvariantCulture);
                }
                else
                {
                    only = args[i];
                }
            }

            var targets = only is null ? FuzzTargets.All : [Find(only)];
            var perTarget = TimeSpan.FromSeconds((double)seconds / targets.Count);
            var failed = 0;
            foreach (var target in targets)
            {
                failed += Smoke(target, perTarget);
            }

            Console.WriteLine(failed == 0 ? "fuzz smoke: no findings" : $"fuzz smoke: {failed} finding(s)");
            return failed == 0 ? 0 : 1;
        }

    default:
        Console.Error.WriteLine($"millrace-fuzz: unknown command '{command}'; use list, smoke, replay, seeds or afl.");
        return 2;
}

static FuzzTarget Find(string name) =>
    FuzzTargets.All.FirstOrDefault(t => t.Name == name) ?? throw new ArgumentException($"No target '{name}'; run 'list'.");

static int Smoke(FuzzTarget target, TimeSpan budget)
{
    var seeds = target.Seeds().ToList();
    var random = new Random(target.Name.Length * 7919);
    var mutator = new Mutator(random);
    var clock = Stopwatch.StartNew();
    var runs = 0;
    var findings = 0;
    foreach (var seed in seeds)
    {
        // Every truncation of every seed first: the commonest damage, and cheap.
        for (var length = 0; length < seed.Length && length < 4096; length++)
        {
            findings += Check(target, seed[..length], $"{target.Name} seed cut to {length}") ? 0 : 1;
            runs++;
        }
    }

    while (clock.Elapsed < budget && findings < 5)
    {
        var input = mutator.Mutate(seeds[random.Next(seeds.Count)]);
        findings += Check(target, input, $"{target.Name} mutation {runs}") ? 0 : 1;
        runs++;
    }

    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{target.Name}: {runs} inputs in {clock.Elapsed.TotalSeconds:0.0} s, {findings} finding(s)"));
    return findings;
}

static bool Check(FuzzTarget target, byte[] input, string label)
{
    var clock = Stopwatch.StartNew();
    var before = GC.GetAllocatedBytesForCurrentThread();
    try
    {
        target.Run(input);
    }
    catch (Exception exception) when (FuzzTarget.IsExpected(exception))
    {
    }
    catch (Exception exception)
    {
        Report(label, input, $"{exception.GetType().Name}: {exception.Message}");
        return false;
    }

    var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
    if (clock.Elapsed > TimeSpan.FromSeconds(5) || allocated > 256L << 20)
    {
        Report(label, input, string.Create(CultureInfo.InvariantCulture, $"took {clock.Elapsed.TotalSeconds:0.0} s and allocated {allocated >> 20} MiB"));
        return false;
    }

    return true;
}

static void Run(FuzzTarget target, byte[] input)
{
    try
    {
        target.Run(input);
    }
    catch (Exception exception) when (FuzzTarget.IsExpected(exception))
    {
    }
}

static void Report(string label, byte[] input, string what)
{
    Directory.CreateDirectory("findings");
    var path = Path.Combine("findings", $"{label.Replace(' ', '-')}.bin");
    File.WriteAllBytes(path, input);
    Console.WriteLine($"FINDING {label}: {what} (input saved as {path})");
}
