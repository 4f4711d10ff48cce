//! The few token shapes the macro emits, made with the compiler's own
//! `proc_macro` API: Rust text the macro writes itself, a spanned
//! `compile_error!`, and a value put in a call's parentheses. This is the
//! part of `quote` the macro used (see `docs/dependencies.md`).

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// Tokens from Rust text the macro wrote (never from user input, which
/// goes in as literals made with [`Literal`]'s constructors).
pub fn code(text: &str) -> TokenStream {
    text.parse()
        .unwrap_or_else(|_| compile_error(Span::call_site(), "include_skills! made invalid tokens"))
}

/// `::core::compile_error! { "message" }`, every token at `span`, so the
/// compiler points the error at what caused it.
pub fn compile_error(span: Span, message: &str) -> TokenStream {
    let spanned = |mut token: TokenTree| {
        token.set_span(span);
        token
    };
    let colons = || {
        [
            spanned(TokenTree::Punct(Punct::new(':', Spacing::Joint))),
            spanned(TokenTree::Punct(Punct::new(':', Spacing::Alone))),
        ]
    };
    let body = TokenStream::from(spanned(TokenTree::Literal(Literal::string(message))));
    let mut out = TokenStream::new();
    out.extend(colons());
    out.extend([spanned(TokenTree::Ident(Ident::new("core", span)))]);
    out.extend(colons());
    out.extend([
        spanned(TokenTree::Ident(Ident::new("compile_error", span))),
        spanned(TokenTree::Punct(Punct::new('!', Spacing::Alone))),
        spanned(TokenTree::Group(Group::new(Delimiter::Brace, body))),
    ]);
    out
}

/// `callee(argument)`: `argument` in the parentheses of a call.
pub fn call(callee: &str, argument: TokenStream) -> TokenStream {
    let mut out = code(callee);
    out.extend([TokenTree::Group(Group::new(
        Delimiter::Parenthesis,
        argument,
    ))]);
    out
}

/// `{ statements }`: a block.
pub fn block(statements: TokenStream) -> TokenStream {
    TokenStream::from(TokenTree::Group(Group::new(Delimiter::Brace, statements)))
}

/// A string literal for Rust text, escaped as the compiler would write it.
pub fn string(text: &str) -> String {
    Literal::string(text).to_string()
}
