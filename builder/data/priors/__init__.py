"""The shipped priors: answer likelihoods per word (builder.priors)."""
