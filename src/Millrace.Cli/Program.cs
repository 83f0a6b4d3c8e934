using Millrace.Cli;

using var cancel = new CancellationTokenSource();
Console.CancelKeyPress += (_, e) =>
{
    e.Cancel = true;
    cancel.Cancel();
};

return await MillraceCli.RunAsync(args, CliConsole.System, cancel.Token);
