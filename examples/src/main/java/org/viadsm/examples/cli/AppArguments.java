package org.viadsm.examples.cli;

import java.util.List;

import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.examples.runtime.App;
import picocli.CommandLine;

/**
 * Parses an application's own arguments into a fresh instance, as every node does for itself.
 */
final class AppArguments
{
    private AppArguments()
    {
    }

    /**
     * A new instance of the application with its options set from {@code args}.
     *
     * @throws CommandLine.ParameterException naming the bad argument, against the application's command line.
     */
    static App parse(final AppCatalog.Entry entry, final List<String> args)
    {
        final App app = entry.newInstance();
        new CommandLine(app).parseArgs(args.toArray(new String[0]));
        return app;
    }

    /**
     * How a launcher's report says whether a run checked its result: "verified" only if the application, as
     * parsed, ran its self-check; otherwise "not checked", naming the option that turns the check on.
     *
     * @param entry the application.
     * @param app   the application with the run's options set.
     * @param ran   what else goes in the parentheses, e.g. how long the application ran.
     * @return e.g. {@code verified (ran)} or {@code not checked (fft checks its result only with -t; ran)}.
     */
    static String verdict(final AppCatalog.Entry entry, final App app, final String ran)
    {
        return app.checksResult() ? "verified (" + ran + ")" :
            "not checked (" + entry.name() + " checks its result only with " + app.checkOption() + "; " + ran + ")";
    }

    static String usage(final AppCatalog.Entry entry)
    {
        return new CommandLine(entry.newInstance()).getUsageMessage();
    }
}
