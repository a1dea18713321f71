package org.viadsm.examples.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;

/**
 * {@code viadsm demo}: the README's first command.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Runs a verified demonstration on several local nodes.")
final class DemoCommand implements Callable<Integer>
{
    @Override
    public Integer call()
    {
        System.out.println("viadsm demo: not yet available in this build");
        return 1;
    }
}
