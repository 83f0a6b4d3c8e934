using BenchmarkDotNet.Running;
using Millrace.Benchmarks.Reporting;

// "report ..." regenerates docs/benchmarks; anything else goes to BenchmarkDotNet's own switcher (--filter, --job, ...).
return args.Length > 0 && args[0] == "report"
    ? ReportCommand.Run(args[1..])
    : RunSwitcher(args);

static int RunSwitcher(string[] args)
{
    BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
    return 0;
}
